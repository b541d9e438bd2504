import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import { chowderCup } from "../checkout-helpers";
import type { DatabaseHandle } from "../../db/client";
import { createTestApp, idemKey, mutate, openTestDatabase, startCart, type TestApp } from "../harness";
import { untilLockWait } from "../lock-helpers";

/**
 * A cart mutation's compare-and-set goes to Postgres with its stored answer and the COMMIT, in one
 * round trip. When it loses (another write committed between this one's read and its update), the
 * answer is not stored, the COMMIT is refused (migration 0005) and the client gets 409 CART_CONFLICT
 * with the revision that won. Deterministic: the test holds the cart's row lock, waits until the
 * request's update waits on it, then commits a new revision under it. Postgres only: PGlite has one
 * connection, so nothing can wait on a lock there. With prepared statements, and without them (a
 * transaction-mode pooler's DATABASE_PREPARE=false), where the driver describes a statement it has
 * not seen before sending it, and the COMMIT queues behind it.
 */
describe.each([true, false])("DATABASE_PREPARE=%s", (prepare) => {
  let app: TestApp;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase("postgres", { settings: { DATABASE_PREPARE: prepare } });
    app = await createTestApp({ database, env: { DATABASE_PREPARE: String(prepare) } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  describe("add item whose compare-and-set loses to a write that commits first", () => {
    it("answers 409 with the winning revision, keeps no record of its key, and runs again on a retry", async () => {
      const db = app.deps.database.db;
      const cart = await startCart(app);
      const key = idemKey();
      const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key };
      const send = () => app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, { headers, body: chowderCup });

      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked: () => void = () => undefined;
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      const winner = db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from carts where id = ${cart.cartId} for update`);
        locked();
        await released;
        await tx.execute(sql`update carts set revision = revision + 1 where id = ${cart.cartId}`);
      });
      await lockHeld;
      const lost = send();
      try {
        await untilLockWait(app.deps.database.db, "%update carts%");
      } finally {
        release();
      }
      await winner;
      const answer = await lost;

      expect(answer.status, answer.text).toBe(409);
      expect(answer.body).toMatchObject({ code: "CART_CONFLICT", details: { currentRevision: 1, currentETag: '"cart-1"' } });
      expect(await queryRows(db, sql`select 1 from idempotency_records where key = ${key}`)).toEqual([]);
      const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
      expect(read.headers.get("etag")).toBe('"cart-1"');
      expect((read.body as { items: unknown[] }).items).toEqual([]);

      // The same request is not replayed (nothing was stored): it runs again, and its If-Match is stale.
      const again = await send();
      expect(again.status, again.text).toBe(409);
      expect(again.headers.get("idempotent-replayed")).toBeNull();
      cart.etag = '"cart-1"';
      expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    });
  });
});
