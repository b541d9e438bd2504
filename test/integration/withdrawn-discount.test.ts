import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discounts } from "../../db/schema";
import { orderCount, pay, paymentSession, pricedCart, type CheckoutCart } from "../checkout-helpers";
import { createTestApp, HARBOR, idemKey, type TestApp } from "../harness";

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
});
