import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import { keyLockId } from "../../server/services/idempotency";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, idemKey, startCart, type TestApp } from "../harness";
import { holdInTransaction } from "../lock-helpers";

/**
 * Retries of a write that committed long ago may arrive together (a client's retry storm, two
 * instances). Each takes the key's advisory lock while it replays; one that finds the lock held by
 * another must still replay the committed answer, not answer 409 IDEMPOTENCY_IN_PROGRESS, which is
 * only true of a first run that has not committed. Deterministic: the test holds the key's lock (as a
 * replaying retry does) while the retry arrives. Postgres only: PGlite's one connection would share
 * the test's lock.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("a retry of a committed write while another holds its key's lock", () => {
  it("replays the stored answer byte for byte", async () => {
    const db = app.deps.database.db;
    const cart = await startCart(app);
    const key = idemKey();
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key };
    const send = () => app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, { headers, body: chowderCup });
    const original = await send();
    expect(original.status, original.text).toBe(200);
    const [record] = await queryRows<{ scope: string }>(db, sql`select scope from idempotency_records where key = ${key}`);
    expect(record).toBeDefined();

    const release = await holdInTransaction(db, sql`select pg_advisory_xact_lock(${keyLockId(record?.scope ?? "", key)})`);
    try {
      const retry = await send();
      expect(retry.status, retry.text).toBe(200);
      expect(retry.text).toBe(original.text);
      expect(retry.headers.get("etag")).toBe(original.headers.get("etag"));
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
    } finally {
      await release();
    }
  });

  it("still answers 409 IDEMPOTENCY_IN_PROGRESS while the first run has not committed", async () => {
    const db = app.deps.database.db;
    const cart = await startCart(app);
    const key = idemKey();
    // A cart mutation's scope is the cart it addresses: take it from a committed write of this cart.
    const probeKey = idemKey();
    const probe = await app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": probeKey },
      body: chowderCup,
    });
    expect(probe.status).toBe(200);
    const [scope] = await queryRows<{ scope: string }>(db, sql`select scope from idempotency_records where key = ${probeKey}`);
    expect(scope).toBeDefined();
    const release = await holdInTransaction(db, sql`select pg_advisory_xact_lock(${keyLockId(scope?.scope ?? "", key)})`);
    try {
      const busy = await app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, {
        headers: { "X-Cart-Token": cart.token, "If-Match": probe.headers.get("etag") ?? "", "Idempotency-Key": key },
        body: chowderCup,
      });
      expect(busy.status, busy.text).toBe(409);
      expect(busy.body).toMatchObject({ code: "IDEMPOTENCY_IN_PROGRESS" });
      expect(busy.headers.get("retry-after")).toBe("1");
    } finally {
      await release();
    }
  });
});
