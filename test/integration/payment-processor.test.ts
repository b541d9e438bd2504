import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IntentTerms } from "../../server/domain/payments";
import type { PaymentIntentLedger } from "../../server/integrations/payments/ledger";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { createStripeProcessor } from "../../server/integrations/payments/stripe";
import { PaymentProcessorError, WebhookSignatureError, type PaymentProcessor } from "../../server/integrations/payments/types";
import { FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * One contract, two processors: the simulated one (the embedded default) and the Stripe
 * implementation driving the real `stripe` SDK against a local HTTP fake (never the network).
 */
const WEBHOOK_SECRET = "whsec_interface_test_secret";

type Subject = { processor: PaymentProcessor; ledger: PaymentIntentLedger; fake?: FakeStripe };

const subjects: { name: string; make: () => Promise<Subject> }[] = [
  {
    name: "simulated processor",
    make: () => {
      const processor = createSimulatedProcessor({ webhookSecret: WEBHOOK_SECRET });
      return Promise.resolve({ processor, ledger: processor.ledger });
    },
  },
  {
    name: "Stripe processor (real SDK, local fake)",
    make: async () => {
      const fake = await startFakeStripe();
      const processor = createStripeProcessor({ secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, timeoutMs: 2000, maxNetworkRetries: 0 });
      return { processor, ledger: fake.ledger, fake };
    },
  },
];

let counter = 0;
function terms(amountMinor = 2599, quote = "a".repeat(64)): IntentTerms {
  counter += 1;
  return {
    amountMinor,
    currency: "usd",
    metadata: { cartId: `cart_contract_${counter}`, quoteFingerprint: quote, locationId: "loc_x", merchantId: "mer_x" },
    description: "Order at Contract Kitchen",
  };
}

async function rejection(promise: Promise<unknown>): Promise<PaymentProcessorError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentProcessorError);
  return error as PaymentProcessorError;
}

describe.each(subjects)("$name", ({ make }) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await make();
  });
  afterAll(async () => {
    await subject.fake?.close();
  });

  it("creates a manual-capture intent bound to cart and quote; the same key answers the same intent", async () => {
    const { processor, ledger } = subject;
    const request = terms();
    const before = ledger.intentCount;
    const first = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create:v1` });
    const again = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create:v1` });
    expect(again.id).toBe(first.id);
    expect(ledger.intentCount).toBe(before + 1);
    expect(first).toMatchObject({ status: "requires_payment_method", amountMinor: 2599, currency: "usd", card: null, lastError: null });
    expect(first.metadata).toMatchObject(request.metadata);
    expect(first.clientSecret).toMatch(new RegExp(`^${first.id}_secret_`));
    expect(ledger.retrieve(first.id).capture_method).toBe("manual");
  });

  it("refuses a used key with different terms instead of making a second intent", async () => {
    const { processor, ledger } = subject;
    const request = terms();
    const key = `${request.metadata.cartId}:create:v1`;
    await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: key });
    const count = ledger.intentCount;
    const error = await rejection(processor.createOrUpdateIntent({ intentId: null, terms: { ...request, amountMinor: 9999 }, idempotencyKey: key }));
    expect(error.kind).toBe("rejected");
    expect(ledger.intentCount).toBe(count);
  });

  it("amends amount and metadata before confirmation, and reads them back", async () => {
    const { processor } = subject;
    const request = terms();
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create` });
    const changed = { ...request, amountMinor: 3150, metadata: { ...request.metadata, quoteFingerprint: "b".repeat(64) } };
    const updated = await processor.createOrUpdateIntent({ intentId: created.id, terms: changed, idempotencyKey: `${request.metadata.cartId}:update:v2` });
    expect(updated).toMatchObject({ id: created.id, amountMinor: 3150 });
    expect((await processor.retrieveIntent(created.id)).metadata.quoteFingerprint).toBe("b".repeat(64));
  });

  it("pm_card_visa authorizes; capture charges once, and a repeated capture with the key answers the same", async () => {
    const { processor, ledger } = subject;
    const request = terms();
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create` });
    const authorized = await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_visa", idempotencyKey: `${created.id}:confirm` });
    expect(authorized).toMatchObject({ status: "requires_capture", card: { brand: "visa", last4: "4242" } });
    const charges = ledger.charges.length;
    const captured = await processor.captureIntent({ intentId: created.id, idempotencyKey: `${created.id}:capture` });
    const repeated = await processor.captureIntent({ intentId: created.id, idempotencyKey: `${created.id}:capture` });
    expect(captured.status).toBe("succeeded");
    expect(repeated.status).toBe("succeeded");
    expect(ledger.charges.length).toBe(charges + 1);
    expect(ledger.charges.at(-1)).toEqual({ intentId: created.id, amount: request.amountMinor, currency: "usd" });
    // A capture under a new key is refused: an intent is charged once.
    expect((await rejection(processor.captureIntent({ intentId: created.id, idempotencyKey: `${created.id}:capture:2` }))).kind).toBe("invalid_state");
  });

  it("pm_card_chargeDeclined answers the declined intent (not an error); another card then authorizes the same intent", async () => {
    const { processor } = subject;
    const request = terms();
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create` });
    const declined = await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_chargeDeclined", idempotencyKey: `${created.id}:attempt1` });
    expect(declined).toMatchObject({ id: created.id, status: "requires_payment_method", lastError: { code: "generic_decline" } });
    // Retrying the declined confirmation with its key replays the decline; it does not try again.
    const replayed = await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_chargeDeclined", idempotencyKey: `${created.id}:attempt1` });
    expect(replayed.status).toBe("requires_payment_method");
    const authorized = await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_mastercard", idempotencyKey: `${created.id}:attempt2` });
    expect(authorized).toMatchObject({ status: "requires_capture", card: { brand: "mastercard", last4: "4444" }, lastError: null });
  });

  it("pm_card_authenticationRequired needs an action a server-side confirmation cannot complete", async () => {
    const { processor } = subject;
    const request = terms();
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create` });
    const result = await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_authenticationRequired", idempotencyKey: `${created.id}:confirm` });
    expect(result.status).toBe("requires_action");
  });

  it("refuses to amend an authorized intent; canceling releases it; unknown ids and payment methods are errors of their kind", async () => {
    const { processor } = subject;
    const request = terms();
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: `${request.metadata.cartId}:create` });
    await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_visa", idempotencyKey: `${created.id}:confirm` });
    const amend = await rejection(processor.createOrUpdateIntent({ intentId: created.id, terms: { ...request, amountMinor: 1 }, idempotencyKey: `${created.id}:update` }));
    expect(amend.kind).toBe("invalid_state");
    expect((await processor.cancelIntent({ intentId: created.id, idempotencyKey: `${created.id}:cancel` })).status).toBe("canceled");
    expect((await rejection(processor.retrieveIntent("pi_does_not_exist"))).kind).toBe("not_found");
    const other = await processor.createOrUpdateIntent({ intentId: null, terms: terms(), idempotencyKey: `other:${created.id}` });
    const unknownMethod = await rejection(processor.confirmIntent({ intentId: other.id, paymentMethodId: "pm_not_a_thing", idempotencyKey: `${other.id}:confirm` }));
    expect(unknownMethod.kind).toBe("invalid_request");
  });

  it("verifies webhook signatures on the raw body against the service's clock", () => {
    const { processor } = subject;
    const payload = JSON.stringify({
      id: "evt_contract_1",
      object: "event",
      type: "payment_intent.succeeded",
      created: 1_800_000_000,
      data: { object: { id: "pi_contract_1", object: "payment_intent" } },
    });
    const at = new Date("2027-01-15T12:00:00Z");
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(at.getTime() / 1000) });
    expect(processor.parseWebhookEvent(payload, header, at)).toEqual({ id: "evt_contract_1", type: "payment_intent.succeeded", intentId: "pi_contract_1" });
    // One byte changed, a missing header, another secret, or a signature older than 5 minutes: refused.
    expect(() => processor.parseWebhookEvent(payload.replace("pi_contract_1", "pi_contract_2"), header, at)).toThrow(WebhookSignatureError);
    expect(() => processor.parseWebhookEvent(payload, null, at)).toThrow(WebhookSignatureError);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else", timestamp: Math.floor(at.getTime() / 1000) });
    expect(() => processor.parseWebhookEvent(payload, forged, at)).toThrow(WebhookSignatureError);
    expect(() => processor.parseWebhookEvent(payload, header, new Date(at.getTime() + 6 * 60_000))).toThrow(WebhookSignatureError);
  });
});

describe("Stripe processor specifics", () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("sends our idempotency key on every write, never one the SDK invented, and form-encodes the terms", async () => {
    const processor = createStripeProcessor({ secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, timeoutMs: 2000, maxNetworkRetries: 2 });
    const request = terms(4200);
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: request, idempotencyKey: "our-key-create-1" });
    await processor.confirmIntent({ intentId: created.id, paymentMethodId: "pm_card_visa", idempotencyKey: "our-key-confirm-1" });
    await processor.captureIntent({ intentId: created.id, idempotencyKey: "our-key-capture-1" });
    const writes = fake.requests.filter((entry) => entry.method === "POST");
    expect(writes.map((entry) => entry.idempotencyKey)).toEqual(["our-key-create-1", "our-key-confirm-1", "our-key-capture-1"]);
    expect(writes[0]?.body).toMatchObject({
      amount: "4200",
      currency: "usd",
      capture_method: "manual",
      metadata: { cartId: request.metadata.cartId, quoteFingerprint: request.metadata.quoteFingerprint },
    });
  });

  it("retries a failed call with the same key, so a lost answer cannot make a second intent", async () => {
    const processor = createStripeProcessor({ secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, timeoutMs: 2000, maxNetworkRetries: 2 });
    fake.inject({ method: "POST", path: /^\/v1\/payment_intents$/, kind: "status", status: 500 });
    const count = fake.ledger.intentCount;
    const created = await processor.createOrUpdateIntent({ intentId: null, terms: terms(), idempotencyKey: "our-key-retried" });
    const attempts = fake.requests.filter((entry) => entry.idempotencyKey === "our-key-retried");
    expect(attempts.length).toBe(2);
    expect(fake.ledger.intentCount).toBe(count + 1);
    expect(created.id).toMatch(/^pi_/);
  });

  it("gives up after its own timeout (not the SDK's 80 s) and reports the processor unavailable", async () => {
    const processor = createStripeProcessor({ secretKey: FAKE_STRIPE_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, timeoutMs: 300, maxNetworkRetries: 0 });
    fake.inject({ method: "GET", path: /^\/v1\/payment_intents\//, kind: "delay", delayMs: 1500 });
    const started = Date.now();
    const error = await rejection(processor.retrieveIntent("pi_slow"));
    expect(error.kind).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it("treats a wrong API key as our misconfiguration, never as the customer's decline", async () => {
    const processor = createStripeProcessor({ secretKey: "sk_test_wrong", webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, timeoutMs: 2000, maxNetworkRetries: 0 });
    expect((await rejection(processor.retrieveIntent("pi_any"))).kind).toBe("rejected");
  });
});
