import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderCount, orderResult, pay, paymentSession, pricedCart, readCart, type ResultBody } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";
import { signedWebhook } from "../stripe-fake";

/**
 * The embedded default processor as a client meets it, by HTTP alone, so that the production
 * bundle shows it too (vitest.after-build.config.ts). There, a processor built by one chunk once
 * threw errors the checkout in another chunk did not recognise: an unknown payment method was a
 * 500 that left the cart LOCKED for good, and a forged webhook a 500 instead of a 400.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("the simulated card processor", () => {
  it("an unknown payment method fails the attempt with a clear code and reopens the cart; a real card then pays once", async () => {
    const cart = await pricedCart(app);
    expect((await paymentSession(app, cart)).status).toBe(200);
    const refused = await pay(app, cart, "pm_card_doesnotexist");
    expect(refused.status, refused.text).toBe(200);
    expect((refused.body as ResultBody).status).toBe("failed");
    expect((refused.body as ResultBody).failure?.code).toBe("invalid_payment_method");
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("failed");

    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status, paid.text).toBe(200);
    expect((paid.body as ResultBody).status).toBe("order_pending");
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });

  it("a forged or unsigned webhook is a 400 envelope, never a 500", async () => {
    const forged = signedWebhook({ type: "payment_intent.succeeded", intent: { id: "pi_forged", object: "payment_intent" }, secret: "whsec_not_the_services", at: app.clock.now });
    const unsigned = new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    for (const request of [forged, unsigned]) {
      const response = await app.fetch(request);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; requestId: string };
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(response.headers.get("x-request-id")).toBe(body.requestId);
    }
  });
});
