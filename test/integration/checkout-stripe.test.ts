import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentAttempts } from "../../db/schema";
import {
  cartUrl,
  orderCount,
  pay,
  paymentSession,
  pricedCart,
  readCart,
  refresh,
  type ResultBody,
} from "../checkout-helpers";
import { mutate, type TestApp } from "../harness";
import { closeAppWithFakeStripe, chargesOf, sessionIntentId, startAppWithFakeStripe } from "../stripe-app";
import { confirmInBrowser, signedWebhook, type FakeStripe } from "../stripe-fake";

/**
 * Checkout with Stripe configured the way a deployment configures it (STRIPE_SECRET_KEY,
 * STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE pointing the real SDK at a local fake), the customer
 * confirming in the browser, and signed webhooks delivered to the webhook route (POST
 * /api/webhooks/stripe, in-process or on the production build). Crashes at chosen points of a
 * payment: checkout-stripe-crash.test.ts (in-process only).
 */
const WEBHOOK_SECRET = "whsec_checkout_stripe_test";

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  ({ fake, app } = await startAppWithFakeStripe(WEBHOOK_SECRET));
});
afterAll(() => closeAppWithFakeStripe({ fake, app }));

const intentsOfCart = (cartId: string) => fake.ledger.allIntents().filter((intent) => intent.metadata.cartId === cartId);

function deliver(type: string, intentId: string, options: { secret?: string; at?: Date; signature?: string; body?: string } = {}) {
  return app.fetch(
    signedWebhook({ type, intent: fake.ledger.retrieve(intentId), secret: options.secret ?? WEBHOOK_SECRET, at: options.at ?? app.clock.now, signature: options.signature, body: options.body }),
  );
}


describe("Stripe: paying with Stripe.js", () => {
  it("one intent per cart, created with a key derived from cart and quote, bound to them by metadata, captured once after the report", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const create = fake.requests.find((request) => request.method === "POST" && request.path === "/v1/payment_intents" && (request.body.metadata as Record<string, string> | undefined)?.cartId === cart.cartId);
    expect(create?.idempotencyKey).toBe(`${cart.cartId}:pi-create:${cart.quoteFingerprint.slice(0, 16)}:v1`);
    expect(create?.body).toMatchObject({ amount: String(cart.total), currency: "usd", capture_method: "manual", metadata: { cartId: cart.cartId, quoteFingerprint: cart.quoteFingerprint } });

    // A second session call recovers the same intent: no second create.
    expect(await sessionIntentId(app, cart)).toBe(intentId);
    expect(intentsOfCart(cart.cartId)).toHaveLength(1);

    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    const paid = await pay(app, cart, undefined);
    expect(paid.status, paid.text).toBe(200);
    expect((paid.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(fake, intentId)).toEqual([{ intentId, amount: cart.total, currency: "usd" }]);
    const captures = fake.requests.filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`);
    expect(captures.map((request) => request.idempotencyKey)).toEqual([expect.stringMatching(new RegExp(`^${intentId}:capture:\\d+$`))]);
  });

  it("a report before the browser confirmed fails the attempt and reopens the cart; nothing is charged", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const early = await pay(app, cart, undefined);
    expect(early.body).toMatchObject({ status: "failed", failure: { code: "payment_not_confirmed" } });
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(await confirmInBrowser(fake, intentId, "pm_card_chargeDeclined")).toBe("declined");
    expect((await pay(app, cart, undefined)).body).toMatchObject({ status: "failed", failure: { code: "generic_decline" } });
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    expect(((await pay(app, cart, undefined)).body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });
});

describe("Stripe: webhooks", () => {
  it("the webhook alone completes a payment the client never reported; the late report and duplicate events change nothing", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    const response = await deliver("payment_intent.amount_capturable_updated", intentId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: true });
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await readCart(app, cart)).status).toBe("COMPLETED");
    expect(chargesOf(fake, intentId)).toHaveLength(1);
    const [attempt] = await app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId));
    expect(attempt).toMatchObject({ source: "webhook", status: "succeeded" });

    for (const type of ["payment_intent.amount_capturable_updated", "payment_intent.succeeded", "payment_intent.succeeded"]) {
      expect((await deliver(type, intentId)).status).toBe(200);
    }
    const report = await pay(app, cart, undefined);
    expect(report.status).toBe(200);
    expect((report.body as ResultBody).status).toBe("order_pending");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("out of order: a stale payment_failed delivered after the success changes nothing", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    await confirmInBrowser(fake, intentId, "pm_card_chargeDeclined");
    const staleFailure = signedWebhook({ type: "payment_intent.payment_failed", intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: app.clock.now });
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    expect((await deliver("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    const completedRevision = (await readCart(app, cart)).revision;
    expect((await app.fetch(staleFailure)).status).toBe(200);
    const after = await readCart(app, cart);
    expect(after).toMatchObject({ status: "COMPLETED", revision: completedRevision });
    expect(await orderCount(app, cart.cartId)).toBe(1);
    const attempts = await app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId));
    expect(attempts.map((attempt) => attempt.status)).toEqual(["succeeded"]);
  });

  it("a payment_failed before any report leaves the cart OPEN for the customer's next card", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const revision = (await readCart(app, cart)).revision;
    await confirmInBrowser(fake, intentId, "pm_card_chargeDeclined");
    expect((await deliver("payment_intent.payment_failed", intentId)).status).toBe(200);
    expect(await readCart(app, cart)).toMatchObject({ status: "OPEN", revision });
  });

  it("refuses a bad signature with 400 and no effect: tampered body, other secret, missing header, too old", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    const requestsBefore = fake.requests.length;
    const good = signedWebhook({ type: "payment_intent.amount_capturable_updated", intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: app.clock.now });
    const goodBody = await good.clone().text();
    const goodSignature = good.headers.get("stripe-signature") ?? "";
    const attempts = [
      signedWebhook({ type: "x", intent: {}, secret: WEBHOOK_SECRET, at: app.clock.now, signature: goodSignature, body: goodBody.replace("amount_capturable_updated", "succeeded") }),
      signedWebhook({ type: "payment_intent.amount_capturable_updated", intent: fake.ledger.retrieve(intentId), secret: "whsec_not_ours", at: app.clock.now }),
      new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json" }, body: goodBody }),
      signedWebhook({ type: "payment_intent.amount_capturable_updated", intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: new Date(app.clock.now.getTime() - 10 * 60_000) }),
    ];
    for (const request of attempts) {
      const response = await app.fetch(request);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; requestId: string };
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(response.headers.get("x-request-id")).toBe(body.requestId);
    }
    expect(fake.requests.length).toBe(requestsBefore);
    expect(await readCart(app, cart)).toMatchObject({ status: "OPEN" });
    expect(chargesOf(fake, intentId)).toHaveLength(0);
    const viaRoute = await app.fetch(good);
    expect(viaRoute.status).toBe(200);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("acknowledges events it does not act on: other types and intents that are not ours", async () => {
    const foreign = browserIntent();
    const response = await deliver("payment_intent.succeeded", foreign);
    expect(await response.json()).toEqual({ received: true, handled: false });
    const other = signedWebhook({ type: "customer.created", intent: { id: "cus_1", object: "customer" }, secret: WEBHOOK_SECRET, at: app.clock.now });
    expect(await (await app.fetch(other)).json()).toEqual({ received: true, handled: false });
  });
});

function browserIntent(): string {
  return fake.ledger.create({ amount: 1000, currency: "usd", metadata: { note: "not a cart" }, capture_method: "manual" }, undefined).id;
}

describe("Stripe: a charge always matches the cart", () => {
  it("an authorization for an outdated amount is never captured: the session cancels it and the new intent is the one charged", async () => {
    const cart = await pricedCart(app);
    const first = await sessionIntentId(app, cart);
    await confirmInBrowser(fake, first, "pm_card_visa");
    const oldQuote = cart.quoteFingerprint;
    // The customer changes the cart in another tab after authorizing the old total.
    expect((await mutate(app, cart, "PUT", "/gratuity", { rate: "0.20" })).status).toBe(200);
    await refresh(app, cart);
    expect((await deliver("payment_intent.amount_capturable_updated", first)).status).toBe(200);
    expect(chargesOf(fake, first)).toHaveLength(0);
    expect((await pay(app, cart, undefined, { quoteFingerprint: oldQuote })).body).toMatchObject({ code: "REQUOTE_REQUIRED" });
    expect((await pay(app, cart, undefined)).body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "PAYMENT_SESSION_REQUIRED" } });

    const second = await sessionIntentId(app, cart);
    expect(second).not.toBe(first);
    expect(fake.ledger.retrieve(first).status).toBe("canceled");
    await confirmInBrowser(fake, second, "pm_card_visa");
    const paid = await pay(app, cart, undefined);
    expect((paid.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(fake, first)).toHaveLength(0);
    expect(chargesOf(fake, second)).toEqual([{ intentId: second, amount: cart.total, currency: "usd" }]);
    expect((await deliver("payment_intent.canceled", first)).status).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });

  it("decides from the processor's view, not our record: an authorization for other terms is never captured", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    // The intent changes behind our back (e.g. in Stripe's dashboard): our record still says it carries the quote.
    fake.ledger.update(intentId, { amount: cart.total - 1 }, undefined);
    await confirmInBrowser(fake, intentId, "pm_card_visa");
    const response = await pay(app, cart, undefined);
    expect(response.body).toMatchObject({ status: "failed", failure: { code: "quote_changed" } });
    expect(chargesOf(fake, intentId)).toHaveLength(0);
    expect((await readCart(app, cart)).status).toBe("OPEN");
    // The next session releases that authorization and starts a clean intent for the real total.
    await refresh(app, cart);
    const next = await sessionIntentId(app, cart);
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(fake.ledger.retrieve(next).amount).toBe(cart.total);
  });
});

describe("Stripe: failures and recovery", () => {
  it("Stripe down: 503 DEPENDENCY_UNAVAILABLE with Retry-After and no revision change; the retry makes exactly one intent", async () => {
    const cart = await pricedCart(app);
    fake.inject({ method: "POST", path: /^\/v1\/payment_intents$/, kind: "status", status: 503 });
    const down = await paymentSession(app, cart);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    expect(down.headers.get("retry-after")).toBe("2");
    expect((await readCart(app, cart)).revision).toBe(Number(/\d+/.exec(cart.etag)?.[0]));
    const retried = await paymentSession(app, cart);
    expect(retried.status, retried.text).toBe(200);
    expect(intentsOfCart(cart.cartId)).toHaveLength(1);
  });

  it("order-result of a cart with nothing in flight does not call Stripe", async () => {
    const cart = await pricedCart(app);
    await sessionIntentId(app, cart);
    const before = fake.requests.length;
    expect((await app.call("GET", `${cartUrl(cart)}/order-result`, { headers: { "X-Cart-Token": cart.token } })).status).toBe(200);
    expect(fake.requests.length).toBe(before);
  });
});
