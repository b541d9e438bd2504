import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import { chowderCup } from "../checkout-helpers";
import { bearer, freshPhone, latestCode, readCartAs, signIn, startCustomerCart } from "../customer-helpers";
import { createTestApp, idemKey, mutate, type TestApp } from "../harness";
import { holdInTransaction, untilLockWait } from "../lock-helpers";

/**
 * A signed-in customer's write holds its session row (FOR SHARE) until it commits, and the logout
 * reads that row for update: a logout that arrives while such a write is under way waits for it, so
 * no write acting for the customer commits after the logout has answered (before, the session row was
 * read without a lock, and the logout answered first). Deterministic: the test holds the cart's row
 * lock until the write's update waits on it, then sends the logout and watches it wait. Postgres
 * only: PGlite has one connection, where nothing can run concurrently.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("a logout while the customer's cart change is under way", () => {
  it("answers only after the change has committed; the token is refused from then on", async () => {
    const { token } = await signIn(app);
    const cart = await startCustomerCart(app, token);
    const db = app.deps.database.db;
    const release = await holdInTransaction(db, sql`select 1 from carts where id = ${cart.cartId} for update`);

    const finished: string[] = [];
    const change = mutate(app, { ...cart }, "POST", "/items", chowderCup).then((response) => (finished.push("change"), response));
    await untilLockWait(db, "%update carts%");
    const logout = app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } }).then((response) => (finished.push("logout"), response));
    const logoutWaits = untilLockWait(db, "%customer_sessions%for update%").then(() => "waiting");
    expect(await Promise.race([logoutWaits, logout.then(() => "answered")])).toBe("waiting");
    expect(finished).toEqual([]);

    await release();
    const [changed, out] = await Promise.all([change, logout]);
    expect(changed.status, changed.text).toBe(200);
    expect(out.status, out.text).toBe(200);
    expect(finished).toEqual(["change", "logout"]);
    expect((await readCartAs(app, cart)).status).toBe(401);
  });

  it("holds for a phone confirmation, whose commit follows its checks in a transaction of its own", async () => {
    const { token, customer } = await signIn(app);
    const phone = freshPhone();
    const started = await app.call("POST", "/customer/phone-verification", { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { phoneNumber: phone } });
    expect(started.status, started.text).toBe(200);
    const { methodId } = started.body as { methodId: string };
    const otp = await latestCode(app, phone);
    const db = app.deps.database.db;
    // The confirmation's commit updates the customer: held here, it waits with the session already read.
    const release = await holdInTransaction(db, sql`select 1 from customers where id = ${customer.id} for update`);
    const finished: string[] = [];
    const confirming = app
      .call("POST", "/customer/phone-verification/confirmation", { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { phoneNumber: phone, methodId, otp } })
      .then((response) => (finished.push("confirmation"), response));
    await untilLockWait(db, '%update "customers"%');
    const logout = app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } }).then((response) => (finished.push("logout"), response));
    expect(await Promise.race([untilLockWait(db, "%customer_sessions%for update%").then(() => "waiting"), logout.then(() => "answered")])).toBe("waiting");
    await release();
    const [confirmed, out] = await Promise.all([confirming, logout]);
    expect([confirmed.status, out.status]).toEqual([200, 200]);
    expect(finished).toEqual(["confirmation", "logout"]);
  });

  // The next two held before the session lock too: they pin what must not change with it.
  it("refuses a change that starts after the logout has committed with 401, and the cart stays as it was", async () => {
    const { token } = await signIn(app);
    const cart = await startCustomerCart(app, token);
    expect((await app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } })).status).toBe(200);
    const refused = await mutate(app, { ...cart }, "POST", "/items", chowderCup);
    expect(refused.status, refused.text).toBe(401);
    const [row] = await queryRows<{ revision: number }>(app.deps.database.db, sql`select revision from carts where id = ${cart.cartId}`);
    expect(Number(row?.revision)).toBe(0);
  });

  it("answers two logouts of one session at once without a deadlock: one 200, the other 200 or 401", async () => {
    const { token } = await signIn(app);
    const both = await Promise.all([0, 1].map(() => app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } })));
    const statuses = both.map((response) => response.status).sort();
    expect(statuses[0], both.map((response) => response.text).join("\n")).toBe(200);
    expect([200, 401]).toContain(statuses[1]);
  });
});
