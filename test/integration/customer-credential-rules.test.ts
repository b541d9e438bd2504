import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chowderCup, pay, paymentSession, type CheckoutCart } from "../checkout-helpers";
import { bearer, signIn, startCustomerCart } from "../customer-helpers";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * Which credential a customer's request is judged by (README "The API's rules", the OpenAPI document's
 * "Credentials"). A signed-out customer token is refused with 401 everywhere, stored answers included: a retry with
 * the key of a write that the customer (this session or another of theirs) made before gets 401,
 * not the stored answer, which may hold a cart or a payment's client secret. Only the logout's own
 * retry replays (customer-auth.test.ts). Idempotency records are scoped by customer, so the other
 * session's retries still replay.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const logout = (token: string) => app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });

describe("a replay to an ended customer session", () => {
  it("is refused for one-transaction writes, another session's included, while that session's own retries replay", async () => {
    const first = await signIn(app);
    const second = await signIn(app, HARBOR.merchantSlug, first.identifier);
    const createKey = idemKey();
    const create = () => app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer(second.token), "Idempotency-Key": createKey }, body: { fulfillmentMethod: "takeout" } });
    const created = await create();
    expect(created.status, created.text).toBe(201);
    const cartId = (created.body as { cart: { id: string } }).cart.id;
    const addKey = idemKey();
    const addHeaders = (token: string) => ({ ...bearer(token), "If-Match": created.headers.get("etag") ?? "", "Idempotency-Key": addKey });
    const add = (token: string) => app.call("POST", `/locations/${HARBOR.locationId}/carts/${cartId}/items`, { headers: addHeaders(token), body: chowderCup });
    expect((await add(second.token)).status).toBe(200);

    expect((await logout(first.token)).status).toBe(200);
    const createAfter = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer(first.token), "Idempotency-Key": createKey }, body: { fulfillmentMethod: "takeout" } });
    expect(createAfter.status, createAfter.text).toBe(401);
    expect(createAfter.text).not.toContain(cartId);
    const addAfter = await add(first.token);
    expect(addAfter.status, addAfter.text).toBe(401);
    expect(addAfter.headers.get("idempotent-replayed")).toBeNull();

    const stillLive = await add(second.token);
    expect(stillLive.status, stillLive.text).toBe(200);
    expect(stillLive.headers.get("idempotent-replayed")).toBe("true");
    expect((await create()).headers.get("idempotent-replayed")).toBe("true");

    expect((await logout(second.token)).status).toBe(200);
    expect((await add(second.token)).status).toBe(401);
  });

  it("is refused for a write that acts at the card processor before it commits (a payment)", async () => {
    const { token } = await signIn(app);
    const handle = await startCustomerCart(app, token);
    const added = await mutate(app, handle, "POST", "/items", chowderCup);
    expect(added.status, added.text).toBe(200);
    const body = added.body as { quoteFingerprint: string; orderTotalWithServiceFeeAmount: number };
    const cart: CheckoutCart = { ...handle, quoteFingerprint: body.quoteFingerprint, total: body.orderTotalWithServiceFeeAmount };
    expect((await paymentSession(app, cart)).status).toBe(200);
    const key = idemKey();
    const paid = await pay(app, cart, "pm_card_visa", { key });
    expect(paid.status, paid.text).toBe(200);
    expect((await pay(app, cart, "pm_card_visa", { key })).headers.get("idempotent-replayed")).toBe("true");

    expect((await logout(token)).status).toBe(200);
    const retried = await pay(app, cart, "pm_card_visa", { key });
    expect(retried.status, retried.text).toBe(401);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("a cart token beside a customer token", () => {
  it("is the credential: the bearer beside it is not consulted, so a wrong one is refused and a right one is enough", async () => {
    const { token } = await signIn(app);
    const own = await startCustomerCart(app, token);
    const guest = await startCart(app);
    const read = (cartId: string, headers: Record<string, string>) => app.call("GET", `/locations/${HARBOR.locationId}/carts/${cartId}`, { headers });

    expect((await read(own.cartId, bearer(token))).status).toBe(200);
    const otherCartsToken = await read(own.cartId, { ...bearer(token), "X-Cart-Token": guest.token });
    expect(otherCartsToken.status, otherCartsToken.text).toBe(403);
    expect((await read(own.cartId, { ...bearer(token), "X-Cart-Token": "ct_not-a-token" })).status).toBe(401);

    const { token: stranger } = await signIn(app);
    const guestsOwnToken = await read(guest.cartId, { ...bearer(stranger), "X-Cart-Token": guest.token });
    expect(guestsOwnToken.status, guestsOwnToken.text).toBe(200);
  });
});
