import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { createTestApp, HARBOR, idemKey, startCart, type TestApp, type TestResponse } from "../harness";
import { chowderCup } from "../checkout-helpers";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * A write that calls an outside service first (set-delivery) checks its key's stored outcome, then
 * its preconditions outside any transaction. An identical request (same key) that commits between
 * the two must be replayed, not reported as this request's failed precondition: a client retrying its
 * own completed request is not told to reload and retry (409 CART_CONFLICT).
 *
 * The database handle runs a hook just before the next cart read outside a transaction: there, the
 * identical request runs to its end.
 */
const dialect = new PgDialect();
let app: TestApp;
let beforeNextCartRead: (() => Promise<void>) | undefined;

function pausingBeforeCartRead(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "execute" || typeof value !== "function") return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      return async (query: SQL) => {
        const hook = beforeNextCartRead;
        if (hook && dialect.sqlToQuery(query).sql.includes("from carts c join locations")) {
          beforeNextCartRead = undefined;
          await hook();
        }
        return (value as (query: SQL) => Promise<unknown>).call(target, query);
      };
    },
  });
}

beforeAll(async () => {
  app = await createTestApp({ overrides: (deps) => ({ database: { ...deps.database, db: pausingBeforeCartRead(deps.database.db) } }) });
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
    beforeNextCartRead = async () => {
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
