import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProcessor } from "../../server/integrations/payments/types";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { attemptsOf, orderCount, pay, paymentSession, pricedCart, type ResultBody } from "../checkout-helpers";
import { createTestApp, type TestApp, idemKey } from "../harness";

/**
 * A payment acts at the card processor before it stores its answer, so its Idempotency-Key is leased
 * while it runs: a second request with the same key is refused at once, never run beside the first.
 * Found by an attack on the production build: a declined card's payment reopened the cart before its
 * answer was stored, and a second request with the same key and another card ran in that window,
 * charged its card and placed the order, then was answered 409 IDEMPOTENCY_KEY_REUSED. In-process: the
 * first payment is held inside the processor's confirm call, which a production server does not let a
 * test do.
 */
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_payment_key_lease_test" });
let holdConfirm: Promise<void> | undefined;
let confirmReached: () => void = () => undefined;
const gated: PaymentProcessor = {
  ...simulated,
  confirmIntent: async (request) => {
    if (holdConfirm) {
      confirmReached();
      await holdConfirm;
    }
    return simulated.confirmIntent(request);
  },
};

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: gated }) });
});
afterAll(async () => {
  await app.close();
});

/** Holds the next confirm call until `release`; `reached` resolves once a payment is inside it. */
function holdNextConfirm() {
  let release: () => void = () => undefined;
  holdConfirm = new Promise((resolve) => {
    release = () => {
      holdConfirm = undefined;
      resolve();
    };
  });
  const reached = new Promise<void>((resolve) => {
    confirmReached = resolve;
  });
  return { reached, release };
}

describe("a payment's Idempotency-Key while the payment runs", () => {
  it("refuses another body with the same key (409 IDEMPOTENCY_KEY_REUSED) and runs nothing for it, before and after the first answers", async () => {
    const cart = await pricedCart(app);
    expect((await paymentSession(app, cart)).status).toBe(200);
    const key = idemKey();
    const gate = holdNextConfirm();
    const declined = pay(app, cart, "pm_card_chargeDeclined", { key });
    await gate.reached;

    const other = await pay(app, cart, "pm_card_visa", { key });
    expect(other.status, other.text).toBe(409);
    expect((other.body as { code: string }).code).toBe("IDEMPOTENCY_KEY_REUSED");
    const same = await pay(app, cart, "pm_card_chargeDeclined", { key });
    expect(same.status, same.text).toBe(409);
    expect((same.body as { code: string }).code).toBe("IDEMPOTENCY_IN_PROGRESS");
    expect(same.headers.get("retry-after")).toBe("1");

    gate.release();
    const first = await declined;
    expect(first.status, first.text).toBe(200);
    expect((first.body as ResultBody).status).toBe("failed");
    const after = await pay(app, cart, "pm_card_visa", { key });
    expect(after.status, after.text).toBe(409);
    expect((after.body as { code: string }).code).toBe("IDEMPOTENCY_KEY_REUSED");

    const attempts = await attemptsOf(app, cart.cartId);
    expect(attempts.map((attempt) => attempt.status)).toEqual(["failed"]);
    expect(await orderCount(app, cart.cartId)).toBe(0);

    // A new key pays: the declined attempt left the cart open, and its lease does not hold other keys.
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status, paid.text).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });

  it("is released when the payment fails without an answer, so that its retry runs", async () => {
    const cart = await pricedCart(app);
    const key = idemKey();
    // No payment session yet: refused (409 PAYMENT_SESSION_REQUIRED) before any card is touched, nothing stored.
    const early = await pay(app, cart, "pm_card_visa", { key });
    expect(early.status, early.text).toBe(409);
    expect((early.body as { details?: { reason?: string } }).details?.reason).toBe("PAYMENT_SESSION_REQUIRED");
    expect((await paymentSession(app, cart)).status).toBe(200);
    const retried = await pay(app, cart, "pm_card_visa", { key });
    expect(retried.status, retried.text).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});
