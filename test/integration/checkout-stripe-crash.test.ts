import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentAttempts } from "../../db/schema";
import { settleCart } from "../../server/services/checkout/finalizer";
import { crashSwitch, orderCount, orderResult, pay, paymentSession, pricedCart, readCart, type CheckoutCart, type ResultBody, type SessionBody } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";
import { confirmInBrowser, FAKE_STRIPE_KEY, intentIdOf, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * Crashes at chosen points of a Stripe payment (after Stripe answered, before the service used the
 * answer). In-process only: the crash is injected into the app's processor, which a production
 * server does not let a test replace (vitest.after-build.config.ts).
 */
const WEBHOOK_SECRET = "whsec_checkout_stripe_crash_test";

let fake: FakeStripe;
let app: TestApp;
const crash = crashSwitch();
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0" },
    overrides: (deps) => ({ payments: crash.wrap(deps.payments) }),
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const chargesOf = (intentId: string) => fake.ledger.charges.filter((charge) => charge.intentId === intentId);
const intentsOfCart = (cartId: string) => fake.ledger.allIntents().filter((intent) => intent.metadata.cartId === cartId);

async function sessionFor(cart: CheckoutCart): Promise<string> {
  const response = await paymentSession(app, cart);
  expect(response.status, response.text).toBe(200);
  return intentIdOf((response.body as SessionBody).clientSecret);
}

describe("Stripe: crashes", () => {
  it("an intent read before the client's report (a webhook racing it) is read again before the attempt is decided", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionFor(cart);
    const readEarly = await app.deps.payments.retrieveIntent(intentId);
    expect(readEarly.status).toBe("requires_payment_method");
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    // The report locks the cart and records the attempt, then loses its answer from Stripe.
    crash.after = "retrieveIntent";
    expect((await pay(app, cart, undefined)).status).toBe(500);
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    // A webhook that read the intent before the report now reaches the finalizer with that old read.
    await settleCart(app.deps, cart.cartId, { observed: readEarly });
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(intentId)).toHaveLength(1);
    const attempts = await app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId));
    expect(attempts.map((attempt) => attempt.status)).toEqual(["succeeded"]);
  });

  it("a crash after Stripe created the intent: the retry sends the recorded key and gets the same intent; one order, one charge", async () => {
    const cart = await pricedCart(app);
    crash.after = "createOrUpdateIntent";
    expect((await paymentSession(app, cart)).status).toBe(500);
    expect(intentsOfCart(cart.cartId)).toHaveLength(1);
    const intentId = await sessionFor(cart);
    expect(intentsOfCart(cart.cartId).map((intent) => intent.id)).toEqual([intentId]);
    const keys = fake.requests.filter((request) => request.path === "/v1/payment_intents" && (request.body.metadata as Record<string, string> | undefined)?.cartId === cart.cartId).map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    crash.after = "captureIntent";
    expect((await pay(app, cart, undefined)).status).toBe(500);
    const polled = await orderResult(app, cart);
    expect((polled.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(intentId)).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});
