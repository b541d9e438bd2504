import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentSessions } from "../../db/schema";
import { runJob } from "../../server/jobs/run";
import { advanceClock, cartRowOf, orderResult, pay, pricedCart, type ResultBody } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";
import { chargesOf, closeAppWithFakeStripe, sessionIntentId, startAppWithFakeStripe } from "../stripe-app";
import { confirmInBrowser, type FakeStripe } from "../stripe-fake";

/**
 * The order result of a cart that expired with its payment session's intent still there. The customer is
 * never told the payment failed or the cart went unpaid while the card holds money for it, and a poll only
 * reads the intent: cancelling it is the reconciliation job's, so polls never send Stripe a write.
 */
let fake: FakeStripe;
let app: TestApp;
let simulated: TestApp | undefined;
beforeAll(async () => {
  ({ fake, app } = await startAppWithFakeStripe("whsec_expired_cart_result"));
});
afterAll(async () => {
  await simulated?.close();
  await closeAppWithFakeStripe({ fake, app });
});

const IDLE_EXPIRY = 25 * 3_600_000;
const said = (body: unknown) => ((body as ResultBody).status === "failed" ? `failed/${(body as ResultBody).failure?.code}` : (body as ResultBody).status);
const writesSince = (from: number) => fake.requests.slice(from).filter((request) => request.method === "POST").map((request) => request.path);

/** A card the server confirmed, declined; then another card confirmed in the browser on the same intent, its report and webhook lost. */
async function declinedThenAuthorisedInBrowser() {
  const cart = await pricedCart(app);
  const intentId = await sessionIntentId(app, cart);
  const declined = await pay(app, cart, "pm_card_chargeDeclined");
  expect(declined.body, declined.text).toMatchObject({ status: "failed", failure: { code: "generic_decline" } });
  expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
  return { cart, intentId };
}

describe("an expired cart whose last attempt was declined, another card authorised in the browser since", () => {
  it("is payment_pending, not the old decline, and the poll sends Stripe no write", async () => {
    const { cart, intentId } = await declinedThenAuthorisedInBrowser();
    advanceClock(app, IDLE_EXPIRY);
    const sent = fake.requests.length;
    const answers = [];
    for (let poll = 0; poll < 3; poll += 1) answers.push(said((await orderResult(app, cart)).body));
    expect(answers).toEqual(["payment_pending", "payment_pending", "payment_pending"]);
    expect(writesSince(sent)).toEqual([]);
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
  });

  it("and stored EXPIRED by the expire-carts job: the same", async () => {
    const { cart, intentId } = await declinedThenAuthorisedInBrowser();
    advanceClock(app, IDLE_EXPIRY);
    await runJob(app.deps, "expire-carts");
    expect((await cartRowOf(app, cart.cartId)).status).toBe("EXPIRED");
    const polled = await orderResult(app, cart);
    expect(polled.body, polled.text).toMatchObject({ status: "payment_pending", pollAfterMs: 30_000 });
    // Once the job has canceled the authorisation, the decline is the answer again.
    await runJob(app.deps, "reconcile-payments");
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(said((await orderResult(app, cart)).body)).toBe("failed/generic_decline");
  });
});

/** A card confirmed in the browser (nobody reported it), then the cart's idle expiry. */
async function authorisedThenExpired(card: "pm_card_visa" | "pm_card_authenticationRequired") {
  const cart = await pricedCart(app);
  const intentId = await sessionIntentId(app, cart);
  expect(await confirmInBrowser(fake, intentId, card)).toBe(card === "pm_card_visa" ? "requires_capture" : "requires_action");
  advanceClock(app, IDLE_EXPIRY);
  return { cart, intentId };
}

describe("an expired cart's intent in other states", () => {
  it("waiting on 3-D Secure: payment_pending, since the challenge can still authorise the card", async () => {
    const { cart } = await authorisedThenExpired("pm_card_authenticationRequired");
    expect(said((await orderResult(app, cart)).body)).toBe("payment_pending");
  });

  it("captured outside the service: the customer is told the card was charged, not that the cart went unpaid", async () => {
    const { cart, intentId } = await authorisedThenExpired("pm_card_visa");
    fake.ledger.capture(intentId, undefined); // from Stripe's dashboard, say
    expect(chargesOf(fake, intentId)).toHaveLength(1);
    expect(said((await orderResult(app, cart)).body)).toBe("failed/charged_without_order");
  });

  it("that Stripe refuses to read: payment_pending, not an internal error", async () => {
    const { cart, intentId } = await authorisedThenExpired("pm_card_visa");
    fake.inject({ method: "GET", path: new RegExp(`^/v1/payment_intents/${intentId}$`), kind: "status", status: 403, error: { type: "invalid_request_error", code: "secret_key_required" } });
    const polled = await orderResult(app, cart);
    expect(polled.status, polled.text).toBe(200);
    expect(said(polled.body)).toBe("payment_pending");
  });

  it("unreadable while Stripe is out of reach: payment_pending, not 503, even with an earlier decline on record", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(said((await pay(app, cart, "pm_card_chargeDeclined")).body)).toBe("failed/generic_decline");
    advanceClock(app, IDLE_EXPIRY);
    await runJob(app.deps, "expire-carts");
    fake.inject({ method: "GET", path: new RegExp(`^/v1/payment_intents/${intentId}$`), kind: "status", status: 503 });
    const polled = await orderResult(app, cart);
    expect(polled.status, polled.text).toBe(200);
    expect(polled.body).toMatchObject({ status: "payment_pending", pollAfterMs: 30_000 });
    expect(said((await orderResult(app, cart)).body)).toBe("failed/generic_decline");
  });

  it("left waiting on 3-D Secure past the job's window: the poll ends with the decline, not payment_pending for good", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(said((await pay(app, cart, "pm_card_authenticationRequired")).body)).toBe("failed/authentication_required");
    // The job never ran while it could cancel the intent.
    advanceClock(app, IDLE_EXPIRY + 8 * 24 * 3_600_000);
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_action");
    expect(said((await orderResult(app, cart)).body)).toBe("failed/authentication_required");
  });

  it("read by an instance on the simulated processor: not forgotten there, and Stripe's own job still cancels it", async () => {
    const { cart, intentId } = await authorisedThenExpired("pm_card_visa");
    // An instance without STRIPE_SECRET_KEY (the simulated processor) over the same database.
    simulated = await createTestApp({ database: app.deps.database });
    simulated.clock.now = app.clock.now;
    expect(said((await orderResult(simulated, cart)).body)).toBe("payment_pending");
    await runJob(simulated.deps, "reconcile-payments");
    const [session] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    expect(session).toMatchObject({ processor: "stripe", intentId });
    await runJob(app.deps, "reconcile-payments");
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    expect(said((await orderResult(app, cart)).body)).toBe("failed/cart_expired");
  });
});
