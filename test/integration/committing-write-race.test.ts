import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Executor } from "../../db/client";
import type * as Rows from "../../db/rows";
import { statementText, type Fragment } from "../../db/fragment";
import { createTestApp, HARBOR, idemKey, startCart, type TestApp, type TestResponse } from "../harness";
import { chowderCup } from "../checkout-helpers";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * A write that calls an outside service first (set-delivery) checks its key's stored outcome, then
 * its preconditions outside any transaction. An identical request (same key) that commits between
 * the two must be replayed, not reported as this request's failed precondition: a client retrying its
 * own completed request is not told to reload and retry (409 CART_CONFLICT).
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

describe("an identical set-delivery that commits while this one checks its preconditions", () => {
  it("is replayed to this one, not answered 409 CART_CONFLICT", async () => {
    const cart = await startCart(app, HARBOR.locationId, "delivery");
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}`;
    const added = await app.call("POST", `${path}/items`, { headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() }, body: chowderCup });
    expect(added.status, added.text).toBe(200);
    const headers = { "X-Cart-Token": cart.token, "If-Match": added.headers.get("etag") ?? "", "Idempotency-Key": idemKey() };
    const send = () => app.call("PUT", `${path}/set-delivery`, { headers, body: deliveryAddressNearHarbor });

    let first: TestResponse | undefined;
    hooks.beforeNextCartRead = async () => {
      first = await send();
    };
    const second = await send();

    expect(first?.status, first?.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first?.text);
    const read = await app.call("GET", path, { headers: { "X-Cart-Token": cart.token } });
    expect(read.headers.get("etag")).toBe('"cart-2"');
  });
});
