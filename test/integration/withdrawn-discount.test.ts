import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discounts, orders } from "../../db/schema";
import { chowderCup, completeOrder, orderCount, pay, paymentSession, pricedCart, type CheckoutCart } from "../checkout-helpers";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * A discount code the merchant withdraws, or changes, after a cart applied it is not paid with as the
 * cart recorded it: the payment session and the payment answer 409 REQUOTE_REQUIRED with
 * DISCOUNT_WITHDRAWN until the code is removed (or applied again on its new terms).
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const setDiscount = (code: string, change: { active?: boolean; rate?: string }) =>
  app.deps.database.db.update(discounts).set(change).where(and(eq(discounts.locationId, HARBOR.locationId), eq(discounts.code, code)));

async function discountCall(cart: CheckoutCart, method: "POST" | "DELETE", code?: string) {
  // The code goes in the body of a POST; a DELETE names its cart in the query.
  const path = `/locations/${cart.locationId}/discounts/apply-discount${method === "DELETE" ? `?cartId=${cart.cartId}` : ""}`;
  const response = await app.call(method, path, {
    headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
    ...(method === "POST" ? { body: { cartId: cart.cartId, code } } : {}),
  });
  expect(response.status, response.text).toBe(200);
  cart.etag = response.headers.get("etag") ?? cart.etag;
  cart.quoteFingerprint = (response.body as { quoteFingerprint: string }).quoteFingerprint;
  return response;
}

function expectWithdrawn(response: { status: number; body: unknown; text: string }) {
  expect(response.status, response.text).toBe(409);
  expect(response.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["DISCOUNT_WITHDRAWN"], blockers: [{ code: "DISCOUNT_WITHDRAWN", paths: ["discountCode"] }] } });
}

describe("a discount code withdrawn after a cart applied it", () => {
  it("blocks the payment session and the payment until the code is removed", async () => {
    const cart = await pricedCart(app);
    await discountCall(cart, "POST", "welcome10");
    await setDiscount("WELCOME10", { active: false });
    try {
      expectWithdrawn(await paymentSession(app, cart));
      expectWithdrawn(await pay(app, cart, "pm_card_visa"));
      expect(await orderCount(app, cart.cartId)).toBe(0);
      const removed = await discountCall(cart, "DELETE");
      expect(removed.body).toMatchObject({ discountTotal: "0.00" });
      expect((await paymentSession(app, cart)).status).toBe(200);
      const paid = await pay(app, cart, "pm_card_visa");
      expect(paid.status, paid.text).toBe(200);
    } finally {
      await setDiscount("WELCOME10", { active: true });
    }
  });

  it("blocks a code whose terms changed until it is applied again, then pays on the new terms", async () => {
    const cart = await pricedCart(app);
    await discountCall(cart, "POST", "welcome10");
    await setDiscount("WELCOME10", { rate: "0.05" });
    try {
      expectWithdrawn(await paymentSession(app, cart));
      await discountCall(cart, "POST", "WELCOME10");
      expect((await paymentSession(app, cart)).status).toBe(200);
      expect((await pay(app, cart, "pm_card_visa")).status).toBe(200);
    } finally {
      await setDiscount("WELCOME10", { rate: "0.10" });
    }
  });

  it("does not block a code that takes nothing off the quote (its minimum no longer reached)", async () => {
    const cart = await pricedCart(app);
    const items = (await mutate(app, cart, "PATCH", `/cart-item/${await firstLineId(cart)}/quantity`, { quantity: 9 })).body as { subTotal: string };
    expect(Number(items.subTotal)).toBeGreaterThan(25);
    await discountCall(cart, "POST", "FIVEOFF");
    const below = await mutate(app, cart, "PATCH", `/cart-item/${await firstLineId(cart)}/quantity`, { quantity: 1 });
    expect(below.body).toMatchObject({ discountCode: "FIVEOFF", discountTotal: "0.00" });
    cart.quoteFingerprint = (below.body as { quoteFingerprint: string }).quoteFingerprint;
    await setDiscount("FIVEOFF", { active: false });
    try {
      const session = await paymentSession(app, cart);
      expect(session.status, session.text).toBe(200);
    } finally {
      await setDiscount("FIVEOFF", { active: true });
    }
  });
});

describe("several refusals with remedies of their own", () => {
  it("are all named in the message, not sent to validate-and-update, which fixes none of them", async () => {
    const handle = await startCart(app, HARBOR.locationId, "table_side");
    const added = await mutate(app, handle, "POST", "/items", chowderCup);
    expect(added.status, added.text).toBe(200);
    const cart: CheckoutCart = { ...handle, quoteFingerprint: "", total: 0 };
    await discountCall(cart, "POST", "welcome10");
    await setDiscount("WELCOME10", { active: false });
    try {
      const refused = await paymentSession(app, cart);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body).toMatchObject({ details: { reasons: ["DISCOUNT_WITHDRAWN", "SERVICE_DETAILS_MISSING"] } });
      const { message } = refused.body as { message: string };
      expect(message).toMatch(/WELCOME10 is no longer offered/);
      expect(message).toMatch(/needs its table number/);
      expect(message).not.toMatch(/validate-and-update/);
    } finally {
      await setDiscount("WELCOME10", { active: true });
    }
  });
});

async function firstLineId(cart: CheckoutCart): Promise<string> {
  const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
  return (read.body as { items: { id: string }[] }).items[0]?.id ?? "";
}

describe("a code that took nothing off", () => {
  it("stays on the cart below its minimum, but the paid order and its receipt name no code", async () => {
    const calamari = { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" };
    const base = await pricedCart(app, calamari);
    const applied = await app.call("POST", `/locations/${base.locationId}/discounts/apply-discount`, {
      headers: { "X-Cart-Token": base.token, "If-Match": base.etag, "Idempotency-Key": idemKey() },
      body: { cartId: base.cartId, code: "FIVEOFF" },
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ discountTotal: "5.00", discountCode: "FIVEOFF" });
    base.etag = applied.headers.get("etag") ?? "";
    const lineId = (applied.body as { items: { id: string }[] }).items[0]?.id ?? "";
    const lowered = await mutate(app, base, "PATCH", `/cart-item/${lineId}/quantity`, { quantity: 1 });
    expect(lowered.status, lowered.text).toBe(200);
    // Below FIVEOFF's 25.00 minimum: kept on the cart, applying nothing.
    expect(lowered.body).toMatchObject({ discountTotal: "0.00", discountCode: "FIVEOFF" });
    const body = lowered.body as { quoteFingerprint: string; orderTotalWithServiceFeeAmount: number };
    const cart: CheckoutCart = { ...base, quoteFingerprint: body.quoteFingerprint, total: body.orderTotalWithServiceFeeAmount };

    const { orderId, receiptId, receiptToken } = await completeOrder(app, cart);
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.discountCode).toBeNull();
    const receipt = await app.call("GET", `/receipts/${receiptId}`, { headers: { "X-Receipt-Token": receiptToken } });
    expect(receipt.status, receipt.text).toBe(200);
    expect(receipt.body).toMatchObject({ discountCode: null, totals: { discountTotal: "0.00" } });
  });
});
