import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/schema";
import { advanceClock, attemptsOf, orderCount, orderResult, pay, paymentSession, pricedCart, readCart, refresh, type ResultBody, type SessionBody } from "../checkout-helpers";
import { bearer, customerOrder, signIn } from "../customer-helpers";
import { idemKey, type TestApp } from "../harness";
import { runJob } from "../../server/jobs/run";
import { closeAppWithFakeStripe, chargesOf, sessionIntentId, startAppWithFakeStripe } from "../stripe-app";
import { confirmInBrowser, intentIdOf, type FakeStripe } from "../stripe-fake";

/**
 * Stripe keeps a server error under the request's Idempotency-Key once the endpoint began to run, and
 * answers it again to every request with that key for 24 hours (the fake does the same: `kept`). A
 * call the service repeats with the same key after such an error would fail for a day: the cart
 * LOCKED with the card authorized and no order, or no payment session at all for the cart. Each call
 * that moves money or an intent takes another key for its next try, and the customer is served as
 * soon as the processor answers again.
 */
let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  ({ fake, app } = await startAppWithFakeStripe("whsec_kept_errors"));
});
afterAll(() => closeAppWithFakeStripe({ fake, app }));

const keysOf = (path: RegExp) => fake.requests.filter((request) => request.method === "POST" && path.test(request.path)).map((request) => request.idempotencyKey);

/** A priced cart with its payment session's intent, and a kept 500 waiting for the intent's next `action`. */
async function paymentWithKeptError(action: "confirm" | "capture", kept: "before" | "after") {
  const cart = await pricedCart(app);
  const intentId = await sessionIntentId(app, cart);
  const path = new RegExp(`^/v1/payment_intents/${intentId}/${action}$`);
  if (action === "capture") expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
  fake.inject({ method: "POST", path, kind: "status", status: 500, kept });
  return { cart, intentId, path };
}

describe("a server error Stripe keeps under the key", () => {
  for (const kept of ["before", "after"] as const) {
    it(`on the capture (${kept} it captured): the next settlement captures or reads the capture, one order, one charge`, async () => {
      const { cart, intentId, path: capture } = await paymentWithKeptError("capture", kept);

      const first = await pay(app, cart, undefined);
      expect(first.status, first.text).toBe(503);
      expect((await readCart(app, cart)).status).toBe("LOCKED");
      expect(await orderCount(app, cart.cartId)).toBe(0);

      advanceClock(app, 1_000);
      const polled = await orderResult(app, cart);
      expect(polled.status, polled.text).toBe(200);
      expect((polled.body as ResultBody).status).toMatch(/^(order_pending|completed)$/);
      expect(await orderCount(app, cart.cartId)).toBe(1);
      expect(chargesOf(fake, intentId)).toEqual([{ intentId, amount: cart.total, currency: "usd" }]);
      // Captured "after": the next settlement reads the intent as succeeded and captures nothing more.
      const keys = keysOf(capture);
      expect(keys).toHaveLength(kept === "before" ? 2 : 1);
      expect(new Set(keys).size).toBe(keys.length);
    });
  }

  it("on the server's confirmation, before it ran: taken as the processor's refusal; the intent canceled, nothing held, and paying again is a new attempt", async () => {
    const { cart, intentId, path: confirm } = await paymentWithKeptError("confirm", "before");

    const first = await pay(app, cart, "pm_card_visa");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: "failed", failure: { code: "processor_error", message: expect.stringMatching(/start the payment again/) as string } });
    // Canceled before the failure is told: whatever Stripe still does with that confirmation authorises nothing.
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(chargesOf(fake, intentId)).toEqual([]);

    await refresh(app, cart);
    const again = await sessionIntentId(app, cart);
    expect(again).not.toBe(intentId);
    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status, paid.text).toMatch(/^(order_pending|completed)$/);
    expect(chargesOf(fake, again)).toEqual([{ intentId: again, amount: cart.total, currency: "usd" }]);
    const [firstAttempt] = await attemptsOf(app, cart.cartId);
    // The kept error's key was never sent again.
    expect(keysOf(confirm)).toEqual([`${firstAttempt?.id}:confirm`]);
  });

  it("on the server's confirmation, with the cancellation then refused: the payment stays pending, never failed while its intent is open", async () => {
    const { cart, intentId } = await paymentWithKeptError("confirm", "before");
    fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/cancel$`), kind: "status", status: 400, error: { type: "invalid_request_error", code: "payment_intent_unexpected_state" } });

    const first = await pay(app, cart, "pm_card_visa");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: "payment_pending" });
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["pending"]);
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_payment_method");

    // The next settlement meets the kept error again, and this time the cancellation is done.
    const polled = await orderResult(app, cart);
    expect(polled.body, polled.text).toMatchObject({ status: "failed", failure: { code: "processor_error" } });
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
  });

  it("on the server's confirmation, with every cancellation refused: pending for the customer, parked by the reconciliation job", async () => {
    const { cart, intentId } = await paymentWithKeptError("confirm", "before");
    for (let refusal = 0; refusal < 6; refusal += 1) {
      fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/cancel$`), kind: "status", status: 400, error: { type: "invalid_request_error", code: "payment_intent_unexpected_state" } });
    }
    expect((await pay(app, cart, "pm_card_visa")).body).toMatchObject({ status: "payment_pending" });
    expect((await orderResult(app, cart)).body).toMatchObject({ status: "payment_pending" });
    advanceClock(app, 120_000);
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "parked", reason: "INTERNAL_ERROR" }]);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["needs_review"]);
  });

  it("on the server's confirmation, after it authorized: the intent is read and the order placed, charged once", async () => {
    const { cart, intentId, path: confirm } = await paymentWithKeptError("confirm", "after");

    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status, paid.text).toMatch(/^(order_pending|completed)$/);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
    expect(keysOf(confirm)).toHaveLength(1);
  });

  it("on the server's confirmation, after the card was declined: the payment fails and the card is tried once", async () => {
    const { cart, intentId, path: confirm } = await paymentWithKeptError("confirm", "after");

    const paid = await pay(app, cart, "pm_card_chargeDeclined");
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(paid.body, paid.text).toMatchObject({ status: "failed", failure: { code: "processor_error" } });
    const polled = await orderResult(app, cart);
    expect(polled.body).toMatchObject({ status: "failed" });
    await runJob(app.deps, "reconcile-payments");
    expect(keysOf(confirm)).toHaveLength(1);
    expect((await readCart(app, cart)).status).toBe("OPEN");
  });

  it("a 5xx Stripe does not keep (from in front of the endpoint) moves no key: a concurrent call that succeeds under it is recorded", async () => {
    const cart = await pricedCart(app);
    const create = /^\/v1\/payment_intents$/;
    const before = keysOf(create).length;
    fake.inject({ method: "POST", path: create, kind: "delay", delayMs: 1_000 });
    fake.inject({ method: "POST", path: create, kind: "status", status: 500 });

    const slow = paymentSession(app, cart);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const failed = await paymentSession(app, cart);
    expect(failed.status, failed.text).toBe(503);
    const answered = await slow;
    expect(answered.status, answered.text).toBe(200);
    const intentId = intentIdOf((answered.body as SessionBody).clientSecret);
    // The next session finds the intent the slow call made: it was recorded under the key it was made with.
    expect(await sessionIntentId(app, cart)).toBe(intentId);
    const keys = keysOf(create).slice(before);
    expect(new Set(keys).size).toBe(1);

    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status, paid.text).toMatch(/^(order_pending|completed)$/);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("on the payment session's intent creation: the next request creates with the next key and pays", async () => {
    const cart = await pricedCart(app);
    const create = /^\/v1\/payment_intents$/;
    const before = keysOf(create).length;
    fake.inject({ method: "POST", path: create, kind: "status", status: 500, kept: "before" });

    const failed = await paymentSession(app, cart);
    expect(failed.status, failed.text).toBe(503);
    const session = await paymentSession(app, cart);
    expect(session.status, session.text).toBe(200);
    const intentId = intentIdOf((session.body as SessionBody).clientSecret);
    const [firstKey, secondKey] = keysOf(create).slice(before);
    expect(secondKey).toBe(`${firstKey}:r1`);

    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status, paid.text).toMatch(/^(order_pending|completed)$/);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("on the cancellation of an expired cart's intent: the next reconciliation run cancels it with a key of its own", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const cancel = new RegExp(`^/v1/payment_intents/${intentId}/cancel$`);
    advanceClock(app, 25 * 3_600_000);
    fake.inject({ method: "POST", path: cancel, kind: "status", status: 500, kept: "before" });

    await runJob(app.deps, "reconcile-payments");
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_payment_method");
    advanceClock(app, 1_000);
    await runJob(app.deps, "reconcile-payments");
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    const keys = keysOf(cancel);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it("an expired cart's intent whose cancellation is always refused is left for the next run quietly: no error, nothing to park", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    advanceClock(app, 25 * 3_600_000);
    for (let refusal = 0; refusal < 4; refusal += 1) {
      fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/cancel$`), kind: "status", status: 400, error: { type: "invalid_request_error", code: "payment_intent_unexpected_state" } });
    }
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details).toMatchObject({ errors: 0 });
    expect(report.attention).toEqual([]);
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_payment_method");
  });

  it("on detaching a saved card: the customer's next removal detaches it", async () => {
    const signedIn = await signIn(app);
    await customerOrder(app, signedIn.token, { paymentMethodId: "pm_card_visa" });
    const listed = await app.call("GET", "/customer/saved-payments", { headers: bearer(signedIn.token) });
    const [card] = (listed.body as { paymentMethods: { id: string }[] }).paymentMethods;
    const detach = new RegExp(`^/v1/payment_methods/${card?.id}/detach$`);
    fake.inject({ method: "POST", path: detach, kind: "status", status: 500, kept: "before" });
    const remove = () => app.call("DELETE", `/customer/saved-payments/${card?.id}`, { headers: { ...bearer(signedIn.token), "Idempotency-Key": idemKey() } });

    expect((await remove()).status).toBe(503);
    const removed = await remove();
    expect(removed.status, removed.text).toBe(200);
    expect(((await app.call("GET", "/customer/saved-payments", { headers: bearer(signedIn.token) })).body as { paymentMethods: unknown[] }).paymentMethods).toEqual([]);
    expect(new Set(keysOf(detach)).size).toBe(2);
  });

  it("on the creation of a signed-in customer's processor customer: the payment goes ahead without saving the card", async () => {
    const signedIn = await signIn(app);
    fake.inject({ method: "POST", path: /^\/v1\/customers$/, kind: "status", status: 500, kept: "before" });
    // customerOrder throws unless the order completes.
    const first = await customerOrder(app, signedIn.token, { paymentMethodId: "pm_card_visa" });
    // The next order meets the kept error again (same key, same day) and is paid as well.
    const second = await customerOrder(app, signedIn.token, { paymentMethodId: "pm_card_visa" });
    expect(first.orderId).not.toBe(second.orderId);
    expect(keysOf(/^\/v1\/customers$/).filter((key) => key === `${signedIn.customer.id}:processor-customer`)).toHaveLength(2);
    const [row] = await app.deps.database.db.select({ processorCustomerId: customers.processorCustomerId }).from(customers).where(eq(customers.id, signedIn.customer.id));
    expect(row?.processorCustomerId).toBeNull();
  });
});

// stripe-node makes a 409 (idempotency_key_in_use, a lock) a StripeAPIError, which the adapter reads as
// unavailable: the confirmation's outcome is not known yet, so the attempt is not failed on it.
describe("a key another request is still using", () => {
  it("Stripe's 409 idempotency_key_in_use on the server's confirmation leaves the payment pending, and the next settlement finds the confirmation's outcome", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const confirm = new RegExp(`^/v1/payment_intents/${intentId}/confirm$`);
    fake.inject({ method: "POST", path: confirm, kind: "status", status: 409, error: { type: "idempotency_error", code: "idempotency_key_in_use" } });

    const first = await pay(app, cart, "pm_card_visa");
    expect(first.status, first.text).toBe(503);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["pending"]);
    expect((await readCart(app, cart)).status).toBe("LOCKED");

    const polled = await orderResult(app, cart);
    expect((polled.body as ResultBody).status, polled.text).toMatch(/^(order_pending|completed)$/);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
    const [attempt] = await attemptsOf(app, cart.cartId);
    expect(keysOf(confirm)).toEqual([`${attempt?.id}:confirm`, `${attempt?.id}:confirm`]);
  });
});
