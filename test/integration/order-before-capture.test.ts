import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../server/jobs/run";
import { advanceClock, attemptsOf, orderCount, pay, pricedCart, readCart, refresh, type CheckoutCart, type ResultBody } from "../checkout-helpers";
import type { TestApp } from "../harness";
import { closeAppWithFakeStripe, chargesOf, sessionIntentId, startAppWithFakeStripe } from "../stripe-app";
import { confirmInBrowser, signedWebhook, type FakeStripe } from "../stripe-fake";

/**
 * The card is captured only once the order is known to be storable: the finalizer places the order in
 * a savepoint and rolls it back just before the capture. An order the database refuses (here a CHECK
 * constraint the test adds for one cart; in the field a value out of range or a bug) leaves the card
 * uncharged, its authorization canceled, the attempt failed with `order_not_placed` and the cart OPEN,
 * on every path that settles a payment: the server's own confirmation and a browser confirmation
 * settled by the webhook. Before, the capture came first and the customer paid for an order that did
 * not exist. Until the cancellation is done the attempt stays pending and the cart LOCKED, so that
 * nothing that settles the cart later can capture the authorization instead.
 */
const WEBHOOK_SECRET = "whsec_order_before_capture";

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  ({ fake, app } = await startAppWithFakeStripe(WEBHOOK_SECRET));
});
afterAll(() => closeAppWithFakeStripe({ fake, app }));



/** Makes the database refuse any order of this cart, until the returned function lifts it. */
async function refuseOrdersOf(cartId: string): Promise<() => Promise<void>> {
  const name = `refuse_orders_of_${cartId.replace(/[^a-z0-9]/gi, "_").toLowerCase()}`;
  await app.deps.database.db.execute(sql.raw(`alter table orders add constraint ${name} check (cart_id <> '${cartId}')`));
  return async () => {
    await app.deps.database.db.execute(sql.raw(`alter table orders drop constraint ${name}`));
  };
}

async function expectReleasedUncharged(cart: CheckoutCart, intentId: string): Promise<void> {
  expect(chargesOf(fake, intentId)).toHaveLength(0);
  expect(fake.ledger.retrieve(intentId)).toMatchObject({ status: "canceled" });
  expect(await orderCount(app, cart.cartId)).toBe(0);
  expect((await readCart(app, cart)).status).toBe("OPEN");
  expect((await attemptsOf(app, cart.cartId)).map((attempt) => [attempt.status, attempt.failureCode])).toEqual([["failed", "order_not_placed"]]);
}

describe("an order the database will not store", () => {
  it("confirmed on the server: the payment fails with order_not_placed, nothing is charged, the hold is released", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const lift = await refuseOrdersOf(cart.cartId);
    try {
      const paid = await pay(app, cart, "pm_card_visa");
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body).toMatchObject({ status: "failed", failure: { code: "order_not_placed" } });
      await expectReleasedUncharged(cart, intentId);
    } finally {
      await lift();
    }

    // Once the order can be stored, the customer pays again with a new authorization, charged once.
    await refresh(app, cart);
    const again = await sessionIntentId(app, cart);
    expect(again).not.toBe(intentId);
    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status).toBe("order_pending");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, again)).toEqual([{ intentId: again, amount: cart.total, currency: "usd" }]);
  });

  it("confirmed in the browser and settled by the webhook: the same, and the late report answers the failure", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    const lift = await refuseOrdersOf(cart.cartId);
    try {
      const delivered = await app.fetch(signedWebhook({ type: "payment_intent.amount_capturable_updated", intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: app.clock.now }));
      expect(delivered.status).toBe(200);
      await expectReleasedUncharged(cart, intentId);
      const report = await pay(app, cart, undefined);
      expect(report.body).toMatchObject({ status: "failed", failure: { code: "payment_canceled" } });
      expect(chargesOf(fake, intentId)).toHaveLength(0);
    } finally {
      await lift();
    }
  });

  it("with the processor out of reach for the cancellation: the cart stays LOCKED, and a later settlement cancels, never captures", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const lift = await refuseOrdersOf(cart.cartId);
    fake.inject({ method: "POST", path: /\/cancel$/, kind: "status", status: 503 });
    let paid;
    try {
      paid = await pay(app, cart, "pm_card_visa");
    } finally {
      // Whatever made the order unstorable is gone by the time the reconciliation job runs.
      await lift();
    }
    expect(paid.status, paid.text).toBe(503);
    expect(paid.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    expect(fake.ledger.retrieve(intentId)).toMatchObject({ status: "requires_capture" });
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => [attempt.status, attempt.failureCode])).toEqual([["pending", "order_not_placed"]]);

    advanceClock(app, 2 * 60_000);
    await runJob(app.deps, "reconcile-payments");
    await expectReleasedUncharged(cart, intentId);
    const result = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}/order-result`, { headers: { "X-Cart-Token": cart.token } });
    expect(result.body).toMatchObject({ status: "failed", failure: { code: "order_not_placed" } });
  });

  it("with the cancellation refused for good: parked for review, the cart LOCKED and nothing charged", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const lift = await refuseOrdersOf(cart.cartId);
    try {
      for (let refusal = 0; refusal < 2; refusal += 1) fake.inject({ method: "POST", path: /\/cancel$/, kind: "status", status: 400 });
      // One cancellation per settlement: refused, the payment stays pending (never an internal error).
      const paid = await pay(app, cart, "pm_card_visa");
      expect(paid.body, paid.text).toMatchObject({ status: "payment_pending" });
      advanceClock(app, 2 * 60_000);
      expect((await runJob(app.deps, "reconcile-payments")).details).toMatchObject({ parked: 1 });
    } finally {
      await lift();
    }
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => [attempt.status, attempt.failureCode])).toEqual([["needs_review", "order_not_placed"]]);
    expect(chargesOf(fake, intentId)).toHaveLength(0);
    // The card still holds the authorization: the customer is not told the payment failed (payment-recovery.test.ts).
    const result = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}/order-result`, { headers: { "X-Cart-Token": cart.token } });
    expect(result.body).toMatchObject({ status: "payment_pending" });
    expect((await readCart(app, cart)).status).toBe("LOCKED");
  });

  it("captured elsewhere after all while marked: placed once it can be stored, and the attempt no longer says it failed", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const lift = await refuseOrdersOf(cart.cartId);
    fake.inject({ method: "POST", path: /\/cancel$/, kind: "status", status: 503 });
    try {
      expect((await pay(app, cart, "pm_card_visa")).status).toBe(503);
    } finally {
      await lift();
    }
    fake.ledger.capture(intentId, `captured-in-the-dashboard-${intentId}`);
    advanceClock(app, 2 * 60_000);
    await runJob(app.deps, "reconcile-payments");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => [attempt.status, attempt.failureCode, attempt.failureMessage])).toEqual([["succeeded", null, null]]);
  });

  it("captured elsewhere while the order still cannot be stored: parked, saying the card was charged", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    const lift = await refuseOrdersOf(cart.cartId);
    try {
      fake.inject({ method: "POST", path: /\/cancel$/, kind: "status", status: 503 });
      expect((await pay(app, cart, "pm_card_visa")).status).toBe(503);
      fake.ledger.capture(intentId, `captured-in-the-dashboard-${intentId}`);
      advanceClock(app, 2 * 60_000);
      expect((await runJob(app.deps, "reconcile-payments")).details).toMatchObject({ parked: 1 });
    } finally {
      await lift();
    }
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => [attempt.status, attempt.failureCode])).toEqual([["needs_review", "charged_without_order"]]);
  });
});
