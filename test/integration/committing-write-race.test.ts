import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Executor } from "../../db/client";
import type * as Rows from "../../db/rows";
import { statementText, type Fragment } from "../../db/fragment";
import { createTestApp, HARBOR, idemKey, startCart, type TestApp, type TestResponse } from "../harness";
import { chowderCup } from "../checkout-helpers";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * A write that calls an outside service first (set-delivery) looks up its key's stored outcome and
 * leases the key, then checks its preconditions outside any transaction. An identical request (same
 * key) sent meanwhile does not run beside it: it is answered 409 IDEMPOTENCY_IN_PROGRESS with
 * Retry-After, and its retry replays the first one's answer. Neither is told to reload and retry
 * (409 CART_CONFLICT), as a client retrying its own request would have been when both ran.
 *
 * A hook runs just before the next cart read outside a transaction (every cart read goes through
 * db/rows.ts fragmentRows, on either driver): there, the identical request runs to its end.
 */
type Hooks = { beforeNextCartRead: (() => Promise<void>) | undefined; database: unknown };
const hooks: Hooks = vi.hoisted((): Hooks => ({ beforeNextCartRead: undefined, database: undefined }));

vi.mock("../../db/rows", async (importOriginal) => {
  const rows = await importOriginal<typeof Rows>();
  return {
    ...rows,
    fragmentRows: async <T>(executor: Executor, statement: Fragment): Promise<T[]> => {
      const hook = hooks.beforeNextCartRead;
      if (hook && executor === hooks.database && statementText(statement).text.includes("from carts c join locations")) {
        hooks.beforeNextCartRead = undefined;
        await hook();
      }
      return rows.fragmentRows<T>(executor, statement);
    },
  };
});

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  hooks.database = app.deps.database.db;
});
afterAll(async () => {
  await app.close();
});

describe("an identical set-delivery sent while this one checks its preconditions", () => {
  it("is refused as in progress, then replays this one's answer; neither is answered 409 CART_CONFLICT", async () => {
    const cart = await startCart(app, HARBOR.locationId, "delivery");
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}`;
    const added = await app.call("POST", `${path}/items`, { headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() }, body: chowderCup });
    expect(added.status, added.text).toBe(200);
    const headers = { "X-Cart-Token": cart.token, "If-Match": added.headers.get("etag") ?? "", "Idempotency-Key": idemKey() };
    const send = () => app.call("PUT", `${path}/set-delivery`, { headers, body: deliveryAddressNearHarbor });

    let meanwhile: TestResponse | undefined;
    hooks.beforeNextCartRead = async () => {
      meanwhile = await send();
    };
    const first = await send();

    expect(meanwhile?.status, meanwhile?.text).toBe(409);
    expect((meanwhile?.body as { code: string }).code).toBe("IDEMPOTENCY_IN_PROGRESS");
    expect(meanwhile?.headers.get("retry-after")).toBe("1");
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retried = await send();
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.text).toBe(first.text);
    const read = await app.call("GET", path, { headers: { "X-Cart-Token": cart.token } });
    expect(read.headers.get("etag")).toBe('"cart-2"');
  });
});
