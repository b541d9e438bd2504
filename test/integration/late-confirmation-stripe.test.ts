import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, attemptsOf, orderCount, orderResult, pay, pricedCart, readCart, type ResultBody } from "../checkout-helpers";
import { runJob } from "../../server/jobs/run";
import { createTestApp, type TestApp } from "../harness";
import { chargesOf, sessionIntentId } from "../stripe-app";
import { FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * A server-side confirmation the service gave up waiting for may still be running at Stripe. Once the
 * cart's quote can no longer be paid, the next settlement fails the payment (`quote_not_payable`,
 * "nothing was charged") and reopens the cart; it must not leave that confirmation free to authorise
 * the card afterwards, with nothing left to release the hold for a day. The intent is canceled first.
 */
const TIMEOUT_MS = 300;
/** How long the fake holds the confirmation: long enough that every step of a case runs before it lands, on a loaded machine too. */
const HELD_MS = 8_000;

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: "whsec_late_confirmation", STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0", STRIPE_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** A cart LOCKED for a server-side confirmation Stripe holds for HELD_MS, its quote expired since: the intent's id and when the hold began. */
async function lockedWithConfirmationHeld() {
  const cart = await pricedCart(app);
  const intentId = await sessionIntentId(app, cart);
  advanceClock(app, 14 * 60_000);
  fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/confirm$`), kind: "delay", delayMs: HELD_MS });
  const heldSince = performance.now();
  const report = await pay(app, cart, "pm_card_visa");
  expect(report.status, report.text).toBe(503);
  expect((await readCart(app, cart)).status).toBe("LOCKED");
  // The quote (15 minutes) expires while Stripe still works on the confirmation.
  advanceClock(app, 2 * 60_000);
  const untilReleased = () => new Promise((resolve) => setTimeout(resolve, HELD_MS - (performance.now() - heldSince) + 200));
  return { cart, intentId, heldSince, untilReleased };
}

const cancelPath = (intentId: string) => new RegExp(`^/v1/payment_intents/${intentId}/cancel$`);

describe("a confirmation still running at Stripe when the quote stops being payable", () => {
  it("is canceled before the payment is reported failed: the card never holds money the customer was told is not charged", async () => {
    const { cart, intentId, heldSince, untilReleased } = await lockedWithConfirmationHeld();
    const polled = await orderResult(app, cart);
    expect(polled.status, polled.text).toBe(200);
    expect((polled.body as ResultBody)).toMatchObject({ status: "failed", failure: { code: "quote_not_payable" } });
    expect(performance.now() - heldSince).toBeLessThan(HELD_MS);

    // The held confirmation then runs, against a canceled intent.
    await untilReleased();
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(chargesOf(fake, intentId)).toEqual([]);
    expect(await orderCount(app, cart.cartId)).toBe(0);
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(((await orderResult(app, cart)).body as ResultBody).failure?.code).toBe("quote_not_payable");
  });

  it("with the cancellation refused as the intent's state: the poll leaves it pending, the reconciliation job cancels it on its own try", async () => {
    const { cart, intentId, heldSince, untilReleased } = await lockedWithConfirmationHeld();
    const unexpectedState = { type: "invalid_request_error", code: "payment_intent_unexpected_state" };
    for (let refusal = 0; refusal < 2; refusal += 1) fake.inject({ method: "POST", path: cancelPath(intentId), kind: "status", status: 400, error: unexpectedState });
    const polled = await orderResult(app, cart);
    expect(polled.status, polled.text).toBe(200);
    expect(polled.body).toMatchObject({ status: "payment_pending" });

    // The job's settlement meets the second refusal; releasing the cart, it cancels once more, and that one is done.
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details).toMatchObject({ released: 1 });
    expect(performance.now() - heldSince).toBeLessThan(HELD_MS);
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("failed");

    await untilReleased();
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(chargesOf(fake, intentId)).toEqual([]);
  });

  it("with every cancellation refused: the reconciliation job parks the payment for review, never pending without end", async () => {
    const { cart, intentId, heldSince } = await lockedWithConfirmationHeld();
    const unexpectedState = { type: "invalid_request_error", code: "payment_intent_unexpected_state" };
    for (let refusal = 0; refusal < 6; refusal += 1) fake.inject({ method: "POST", path: cancelPath(intentId), kind: "status", status: 400, error: unexpectedState });
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details).toMatchObject({ parked: 1 });
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "parked", reason: "INTERNAL_ERROR" }]);
    expect(performance.now() - heldSince).toBeLessThan(HELD_MS);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["needs_review"]);
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
  });

  it("with the cancellation failing otherwise: the reconciliation job parks the payment instead of telling the customer nothing is held", async () => {
    const { cart, intentId, heldSince, untilReleased } = await lockedWithConfirmationHeld();
    for (let refusal = 0; refusal < 3; refusal += 1) fake.inject({ method: "POST", path: cancelPath(intentId), kind: "status", status: 400 });
    // A refusal of any kind leaves the payment pending for the customer, never an internal error.
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details).toMatchObject({ parked: 1 });
    expect(performance.now() - heldSince).toBeLessThan(HELD_MS);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["needs_review"]);
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");

    await untilReleased();
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
  });
});
