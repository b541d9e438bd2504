import { expect } from "vitest";
import { paymentSession, type CheckoutCart, type SessionBody } from "./checkout-helpers";
import { createTestApp, type TestApp } from "./harness";
import { FAKE_STRIPE_KEY, intentIdOf, startFakeStripe, type FakeStripe } from "./stripe-fake";

/**
 * An app configured for Stripe as a deployment is (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET), with
 * the real SDK pointed at a fresh local fake (STRIPE_API_BASE) and no SDK retries, so that a fault
 * the fake answers reaches the service as it is.
 */
export async function startAppWithFakeStripe(webhookSecret: string, env: Record<string, string> = {}): Promise<{ fake: FakeStripe; app: TestApp }> {
  const fake = await startFakeStripe();
  const app = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0", ...env },
  });
  return { fake, app };
}

export async function closeAppWithFakeStripe({ fake, app }: { fake: FakeStripe | undefined; app: TestApp | undefined }): Promise<void> {
  await app?.close();
  await fake?.close();
}

/** What the fake charged on one intent. */
export const chargesOf = (fake: FakeStripe, intentId: string) => fake.ledger.charges.filter((charge) => charge.intentId === intentId);

/** Makes (or recovers) the cart's payment session and answers its intent's id. */
export async function sessionIntentId(app: TestApp, cart: CheckoutCart): Promise<string> {
  const response = await paymentSession(app, cart);
  expect(response.status, response.text).toBe(200);
  return intentIdOf((response.body as SessionBody).clientSecret);
}
