import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyRecords } from "../../db/schema";
import { hashToken } from "../../server/security/tokens";
import { chowderCup } from "../checkout-helpers";
import { cartCredential, createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * An Idempotency-Key is reserved, within its caller's scope, for retries of the one request it was
 * first sent with: another operation with the same key is refused, not run. And a replay that would
 * hand out a credential goes only to a caller the service can tell apart from others.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/** A new cart with a chowder added under a fresh Idempotency-Key: the first use of that key. */
async function addChowderUnderNewKey() {
  const cart = await startCart(app);
  const key = idemKey();
  const base = `/locations/${cart.locationId}/carts/${cart.cartId}`;
  const added = await app.call("POST", `${base}/items`, { headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": key }, body: chowderCup });
  expect(added.status, added.text).toBe(200);
  return { cart, key, base, added };
}

describe("one key, one request", () => {
  it("refuses the same key on another operation of the same cart with 409 IDEMPOTENCY_KEY_REUSED, and runs nothing", async () => {
    const { cart, key, base, added } = await addChowderUnderNewKey();
    const etag = added.headers.get("etag") ?? "";
    const tipped = await app.call("PUT", `${base}/gratuity`, { headers: { ...cartCredential(cart), "If-Match": etag, "Idempotency-Key": key }, body: { rate: "0.1" } });
    expect(tipped.status, tipped.text).toBe(409);
    expect(tipped.body).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    const read = await app.call("GET", base, { headers: cartCredential(cart) });
    expect(read.headers.get("etag")).toBe(etag);
    expect(read.body).toMatchObject({ waiterTipTotal: "0.00" });
  });

  it("runs a request again once its key's record has expired, even for another operation, and keeps one record per key", async () => {
    const { cart, key, base, added } = await addChowderUnderNewKey();
    // Past IDEMPOTENCY_RETENTION_HOURS (the cart itself would expire long before, so the record is aged instead of the clock moved).
    await app.deps.database.db.update(idempotencyRecords).set({ expiresAt: new Date(app.clock.now.getTime() - 1_000) }).where(eq(idempotencyRecords.key, key));
    const tip = () => app.call("PUT", `${base}/gratuity`, { headers: { ...cartCredential(cart), "If-Match": added.headers.get("etag") ?? "", "Idempotency-Key": key }, body: { rate: "0.1" } });
    const tipped = await tip();
    expect(tipped.status, tipped.text).toBe(200);
    expect(tipped.headers.get("idempotent-replayed")).toBeNull();
    expect(tipped.body).toMatchObject({ revision: 2 });
    const records = await app.deps.database.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.key, key));
    expect(records.map((record) => ({ operation: record.operation, statusCode: record.statusCode }))).toEqual([{ operation: "carts.setGratuity", statusCode: 200 }]);
    const again = await tip();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(tipped.text);
  });

  it("refuses an anonymous caller's key reused from an ordering session for a sign-in", async () => {
    const key = idemKey();
    const session = await app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": key }, body: { fulfillmentMethod: "takeout" }, ip: "198.51.100.7" });
    expect(session.status).toBe(201);
    const login = await app.call("POST", "/customer/auth/login", { headers: { "Idempotency-Key": key }, body: { merchantSlug: HARBOR.merchantSlug, identifierString: "reuse@example.com" }, ip: "198.51.100.7" });
    expect(login.status, login.text).toBe(409);
    expect(login.body).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
  });
});

describe("replays of an answer that carries a credential", () => {
  it("never hand an anonymous caller's cart token to another client at the same address", async () => {
    const key = idemKey();
    const send = () => app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": key }, body: { fulfillmentMethod: "takeout" }, ip: "203.0.113.99" });
    const first = await send();
    expect(first.status).toBe(201);
    const token = (first.body as { cartAccessToken?: string }).cartAccessToken;
    expect(token).toMatch(/^ct_/);
    // A second client behind the same NAT, with the same key and body.
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).not.toContain(token ?? "(none)");
    expect(replay.body).not.toHaveProperty("cartAccessToken");
    expect((replay.body as { cart: { id: string } }).cart.id).toBe((first.body as { cart: { id: string } }).cart.id);
  });
});

describe("stored answers", () => {
  it("take at most 0.3 of the answer's bytes (a 20-line cart)", async () => {
    const cart = await startCart(app);
    let last = { text: "", key: "" };
    for (let line = 0; line < 20; line++) {
      const key = idemKey();
      const item = { ...chowderCup, specialInstructions: `line ${line}` };
      const added = await mutate(app, cart, "POST", "/items", item, { "Idempotency-Key": key });
      expect(added.status, added.text).toBe(200);
      last = { text: added.text, key };
    }
    const records = await app.deps.database.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.scope, `cart:${hashToken(cart.token)}`));
    const stored = records.find((record) => record.key === last.key);
    expect(stored).toBeDefined();
    const ratio = Buffer.byteLength(stored?.responseSealed ?? "") / Buffer.byteLength(last.text);
    expect(ratio).toBeLessThanOrEqual(0.3);
  });
});
