import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, paymentAttempts } from "../../db/schema";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { handleStripeWebhook } from "../../server/webhooks/stripe";
import {
  crashSwitch,
  orderCount,
  orderResult,
  pay,
  paymentSession,
  pricedCart,
  readCart,
  refresh,
  type CheckoutCart,
  type ResultBody,
  type SessionBody,
} from "../checkout-helpers";
import { createTestApp, idemKey, mutate, type TestApp, type TestResponse } from "../harness";
import { confirmInBrowser, FAKE_STRIPE_KEY, intentIdOf, signedWebhook, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * Checkout races on the real Postgres (PGlite runs one transaction at a time, so these could not
 * fail there). Whatever the interleaving of the client's report, the processor's webhooks, polls,
 * retries and cart changes: at most one order per cart, exactly one charge per order, and the
 * charge is the locked cart's total.
 */
const WEBHOOK_SECRET = "whsec_checkout_races";
const ROUNDS = 8;

let fake: FakeStripe;
let stripeApp: TestApp;
const crash = crashSwitch();
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_sim_races" });
let simulatedApp: TestApp;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripeApp = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0" },
    overrides: (deps) => ({ payments: crash.wrap(deps.payments) }),
  });
  simulatedApp = await createTestApp({ overrides: () => ({ payments: crash.wrap(simulated) }) });
});
afterAll(async () => {
  await stripeApp.close();
  await simulatedApp.close();
  await fake.close();
});

function webhook(type: string, intentId: string): Promise<Response> {
  return handleStripeWebhook(stripeApp.deps, signedWebhook({ type, intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: stripeApp.clock.now }));
}

async function sessionFor(app: TestApp, cart: CheckoutCart): Promise<string> {
  const response = await paymentSession(app, cart);
  expect(response.status, response.text).toBe(200);
  return intentIdOf((response.body as SessionBody).clientSecret);
}

/** Start delays (ms) for the racers of a round: a fixed rotation, so each racer is sometimes first. */
const stagger = (round: number, racer: number) => ((round + racer) % 4) * 8;
const after = <T>(ms: number, run: () => Promise<T>) => new Promise<void>((resolve) => setTimeout(resolve, ms)).then(run);

const codeOf = (response: TestResponse) => (response.body as { code?: string }).code;

/** The invariants of every round: orders = charges <= 1, the charge is the order's total, nothing left pending. */
async function expectOneConsistentOutcome(app: TestApp, cartId: string, charges: { amount: number }[]) {
  const placed = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cartId));
  expect(placed.length).toBeLessThanOrEqual(1);
  expect(charges).toHaveLength(placed.length);
  const order = placed[0];
  if (order) {
    expect(charges[0]?.amount).toBe(order.amountChargedMinor);
    expect(order.amountChargedMinor).toBe(order.totals.orderTotalWithServiceFee);
  }
  const attempts = await app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId));
  expect(attempts.filter((attempt) => attempt.status === "pending")).toEqual([]);
  expect(attempts.filter((attempt) => attempt.status === "succeeded")).toHaveLength(placed.length);
  return order;
}

describe("Stripe checkout races", () => {
  it("the client's report vs the webhook (twice) vs a cart change: the change or the payment wins, never both", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const cart = await pricedCart(stripeApp);
      const intentId = await sessionFor(stripeApp, cart);
      await confirmInBrowser(fake, intentId, "pm_card_visa");
      const totalBefore = cart.total;
      // Staggered starts, different every round, so both orders of arrival happen.
      const [report, first, second, change] = await Promise.all([
        after(stagger(round, 0), () => pay(stripeApp, cart, undefined)),
        after(stagger(round, 1), () => webhook("payment_intent.amount_capturable_updated", intentId)),
        after(stagger(round, 2), () => webhook("payment_intent.amount_capturable_updated", intentId)),
        after(stagger(round, 3), () => mutate(stripeApp, cart, "PUT", "/gratuity", { rate: "0.20" })),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const order = await expectOneConsistentOutcome(stripeApp, cart.cartId, fake.ledger.charges.filter((charge) => charge.intentId === intentId));
      if (change.status === 200) {
        expect(order).toBeUndefined();
        expect(report.status).toBe(409);
        expect(codeOf(report)).toBe("REQUOTE_REQUIRED");
        expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
        expect((await readCart(stripeApp, cart)).status).toBe("OPEN");
      } else {
        expect(change.status).toBe(409);
        expect(["CART_IMMUTABLE", "CART_CONFLICT"]).toContain(codeOf(change));
        expect(order?.amountChargedMinor).toBe(totalBefore);
        expect(report.status, report.text).toBe(200);
        expect((report.body as ResultBody).orderId).toBe(order?.id);
        expect((await readCart(stripeApp, cart)).status).toBe("COMPLETED");
      }
    }
  });

  it("six reports with different keys, three webhooks and three polls at once: one attempt, one order, one capture", async () => {
    const cart = await pricedCart(stripeApp);
    const intentId = await sessionFor(stripeApp, cart);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => pay(stripeApp, cart, undefined)),
      ...Array.from({ length: 3 }, () => webhook("payment_intent.amount_capturable_updated", intentId).then((response) => ({ status: response.status, body: undefined }))),
      ...Array.from({ length: 3 }, () => orderResult(stripeApp, cart)),
    ]);
    for (const result of results) expect(result.status).toBe(200);
    const order = await expectOneConsistentOutcome(stripeApp, cart.cartId, fake.ledger.charges.filter((charge) => charge.intentId === intentId));
    expect(order).toBeDefined();
    for (const result of results.slice(0, 6)) expect((result.body as ResultBody).orderId).toBe(order?.id);
    const captureKeys = new Set(fake.requests.filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`).map((request) => request.idempotencyKey));
    for (const key of captureKeys) expect(key).toMatch(new RegExp(`^${intentId}:capture:\\d+$`));
    expect(await stripeApp.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId))).toHaveLength(1);
  });

  it("a crash after Stripe created the intent, then concurrent retries: one PaymentIntent, one order, one charge", async () => {
    const cart = await pricedCart(stripeApp);
    crash.after = "createOrUpdateIntent";
    expect((await paymentSession(stripeApp, cart)).status).toBe(500);
    const etag = cart.etag;
    const retries = await Promise.all(Array.from({ length: 4 }, () => paymentSession(stripeApp, { ...cart, etag })));
    const succeeded = retries.filter((response) => response.status === 200);
    expect(succeeded).toHaveLength(1);
    for (const response of retries.filter((candidate) => candidate.status !== 200)) expect(codeOf(response)).toBe("CART_CONFLICT");
    const intents = fake.ledger.allIntents().filter((intent) => intent.metadata.cartId === cart.cartId);
    expect(intents).toHaveLength(1);
    const intentId = intentIdOf((succeeded[0]?.body as SessionBody).clientSecret);
    expect(intentId).toBe(intents[0]?.id);

    await refresh(stripeApp, cart);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    crash.after = "captureIntent";
    expect((await pay(stripeApp, cart, undefined)).status).toBe(500);
    await Promise.all([pay(stripeApp, cart, undefined), webhook("payment_intent.succeeded", intentId), orderResult(stripeApp, cart)]);
    const order = await expectOneConsistentOutcome(stripeApp, cart.cartId, fake.ledger.charges.filter((charge) => charge.intentId === intentId));
    expect(order).toBeDefined();
  });

  it("the database itself refuses a second order for a paid cart (unique constraint), not only the finalizer", async () => {
    const cart = await pricedCart(stripeApp);
    const intentId = await sessionFor(stripeApp, cart);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    await pay(stripeApp, cart, undefined);
    const [order] = await stripeApp.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    if (!order) throw new Error("no order");
    const db = stripeApp.deps.database.db;
    const [attempt] = await db
      .insert(paymentAttempts)
      .values({ id: `${order.attemptId}_x`, cartId: cart.cartId, intentId: "pi_other", source: "client", status: "failed", createdAt: stripeApp.clock.now })
      .returning();
    const copy = { ...order, id: `${order.id}_copy`, paymentIntentId: "pi_other", attemptId: attempt?.id ?? "" };
    const error: unknown = await db.insert(orders).values(copy).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const cause = (error as { cause?: { message?: string; constraint_name?: string } }).cause;
    expect(`${cause?.constraint_name ?? ""} ${cause?.message ?? ""}`).toMatch(/orders_cart_id_unique/);
    expect(await orderCount(stripeApp, cart.cartId)).toBe(1);
  });
});

describe("Simulated processor races (server-side confirmation)", () => {
  it("a report vs a cart change: the change or the payment wins, never both", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const cart = await pricedCart(simulatedApp);
      await sessionFor(simulatedApp, cart);
      const totalBefore = cart.total;
      const [report, change] = await Promise.all([
        after(stagger(round, 0), () => pay(simulatedApp, cart, "pm_card_visa")),
        after(stagger(round, 3), () => mutate(simulatedApp, cart, "PUT", "/gratuity", { rate: "0.20" })),
      ]);
      const intentId = (await simulatedApp.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId)))[0]?.intentId ?? "none";
      const order = await expectOneConsistentOutcome(simulatedApp, cart.cartId, simulated.ledger.charges.filter((charge) => charge.intentId === intentId));
      if (change.status === 200) {
        expect(order).toBeUndefined();
        expect(codeOf(report)).toBe("REQUOTE_REQUIRED");
      } else {
        expect(["CART_IMMUTABLE", "CART_CONFLICT"]).toContain(codeOf(change));
        expect(order?.amountChargedMinor).toBe(totalBefore);
      }
    }
  });

  it("a declined and two good cards reported at once: one attempt at a time, at most one charge", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const cart = await pricedCart(simulatedApp);
      const intentId = await sessionFor(simulatedApp, cart);
      const results = await Promise.all([
        pay(simulatedApp, cart, "pm_card_chargeDeclined"),
        pay(simulatedApp, cart, "pm_card_visa"),
        pay(simulatedApp, cart, "pm_card_mastercard"),
      ]);
      for (const result of results) expect([200, 409]).toContain(result.status);
      await expectOneConsistentOutcome(simulatedApp, cart.cartId, simulated.ledger.charges.filter((charge) => charge.intentId === intentId));
    }
  });

  it("a declined and a good card under one Idempotency-Key, the second a little later: the one answered 409 ran nothing", async () => {
    // Before key leases the declined payment reopened the cart before its answer was stored, and the
    // other card ran in that window, was charged, and only then was answered 409 IDEMPOTENCY_KEY_REUSED.
    for (let round = 0; round < 2 * ROUNDS; round++) {
      const cart = await pricedCart(simulatedApp);
      await sessionFor(simulatedApp, cart);
      const key = idemKey();
      const [declined, good] = await Promise.all([
        pay(simulatedApp, cart, "pm_card_chargeDeclined", { key }),
        new Promise((resolve) => setTimeout(resolve, round)).then(() => pay(simulatedApp, cart, "pm_card_visa", { key })),
      ]);
      const attempts = await simulatedApp.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId));
      const refused = [declined, good].filter((response) => response.status === 409);
      expect(refused, `round ${round}`).toHaveLength(1);
      const refusedMethod = refused[0] === declined ? "pm_card_chargeDeclined" : "pm_card_visa";
      expect(attempts.map((attempt) => attempt.paymentMethodId), `round ${round}`).not.toContain(refusedMethod);
      expect(attempts, `round ${round}`).toHaveLength(1);
    }
  });

  it("a crash after the confirmation, then polls and retries at once: the same confirmation is resumed, one charge", async () => {
    const cart = await pricedCart(simulatedApp);
    const intentId = await sessionFor(simulatedApp, cart);
    crash.after = "confirmIntent";
    expect((await pay(simulatedApp, cart, "pm_card_visa")).status).toBe(500);
    await Promise.all([
      ...Array.from({ length: 4 }, () => orderResult(simulatedApp, cart)),
      pay(simulatedApp, cart, "pm_card_visa"),
      pay(simulatedApp, cart, "pm_card_mastercard"),
    ]);
    const order = await expectOneConsistentOutcome(simulatedApp, cart.cartId, simulated.ledger.charges.filter((charge) => charge.intentId === intentId));
    expect(order?.cardBrand).toBe("visa");
  });
});
