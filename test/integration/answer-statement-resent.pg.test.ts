import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import { queryRows } from "../../db/rows";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, idemKey, mutate, openTestDatabase, startCart, type TestApp } from "../harness";

/**
 * postgres.js sends a prepared statement again when the server no longer has it (a transaction-mode
 * pooler's DEALLOCATE, a changed column type). A write's stored answer goes with its COMMIT
 * (db/last-statement.ts), so that second send goes after the COMMIT, outside any transaction; its
 * WITH (the cart's compare-and-set) must not commit alone there: `idempotency_claim_held` (migration
 * 0005) fails it. In-process only, and Postgres only: the test deallocates the statement on the
 * service's own (single) connection, which a server process under test would not share.
 */
describe("a write whose prepared answer statement the server no longer has (a pooler, DEALLOCATE)", () => {
  let app: TestApp;
  let database: DatabaseHandle;
  beforeAll(async () => {
    // One connection: the statement the test deallocates is the one the next request uses.
    database = await openTestDatabase("postgres", { settings: { DATABASE_POOL_MAX: 1, DATABASE_PREPARE: true } });
    app = await createTestApp({ database });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("commits nothing when the driver sends it again after the COMMIT, and the same request then runs once", async () => {
    const db = app.deps.database.db;
    const cart = await startCart(app);
    // Twice, so the answer's statement is prepared on the connection.
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    const before = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    const prepared = await queryRows<{ name: string }>(db, sql`select name from pg_prepared_statements where statement like '%last_write%' and statement like '%update carts%'`);
    expect(prepared.length).toBeGreaterThan(0);
    for (const { name } of prepared) await db.execute(sql.raw(`deallocate "${name.replace(/"/g, '""')}"`));

    const key = idemKey();
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key };
    const send = () => app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, { headers, body: chowderCup });
    const failed = await send();
    expect(failed.status, failed.text).toBe(500);
    const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.text).toBe(before.text);
    expect(await queryRows(db, sql`select 1 from idempotency_records where key = ${key}`)).toEqual([]);

    const retried = await send();
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });
});
