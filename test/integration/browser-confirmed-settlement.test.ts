import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discounts } from "../../db/schema";
import { PEER_ADDRESS_HEADER } from "../../server/http/client-ip";
import { advanceClock, duneHummus, orderCount, orderResult, pay, paymentSession, pricedCart, readCart, type CheckoutCart, type ResultBody } from "../checkout-helpers";
import { DUNE, HARBOR, idemKey, mutate, type TestApp } from "../harness";
import { closeAppWithFakeStripe, chargesOf, sessionIntentId, startAppWithFakeStripe } from "../stripe-app";
import { confirmInBrowser, signedWebhook, type FakeStripe } from "../stripe-fake";

/**
 * A payment the customer confirmed in the browser is settled on the same terms whichever way the
 * service hears of it first: the client's report (POST .../payments without a payment method) or the
 * processor's webhook. The order time, the lines' menus and the discount code are checked when the
 * payment session is made, before the card can be confirmed; once it is, a report does not refuse
 * what the webhook would then capture. A payment the server confirms itself (with a payment method)
 * is still checked in full, since no money has moved yet.
 *
 * Dune Grill (Asia/Dubai, UTC+4) is open 10:00-23:00 on Wednesdays, takeout lead 20 minutes: ASAP is
 * offered until 22:40. A quote lives 15 minutes.
 */
const WEBHOOK_SECRET = "whsec_browser_confirmed_settlement";
const CRON_SECRET = "test-cron-secret-browser-confirmed-0123";

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  ({ fake, app } = await startAppWithFakeStripe(WEBHOOK_SECRET, { CRON_SECRET }));
});
afterAll(() => closeAppWithFakeStripe({ fake, app }));

/** Dubai local time on Wednesday 2026-12-02, as UTC. */
const dubai = (time: string) => new Date(`2026-12-02T${time}:00+04:00`);


function deliver(type: string, intentId: string) {
  return app.fetch(signedWebhook({ type, intent: fake.ledger.retrieve(intentId), secret: WEBHOOK_SECRET, at: app.clock.now }));
}

/** An ASAP cart at Dune Grill with its payment session made at 22:30, confirmed in the browser at 22:38. */
async function confirmedBeforeAsapCloses(): Promise<{ cart: CheckoutCart; intentId: string }> {
  app.clock.now = dubai("22:30");
  const cart = await pricedCart(app, duneHummus, DUNE.locationId);
  const intentId = await sessionIntentId(app, cart);
  app.clock.now = dubai("22:38");
  expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
  return { cart, intentId };
}

describe("a payment confirmed in the browser just before ASAP stopped being offered", () => {
  it("is settled by the client's report at 22:42, as the webhook would settle it: one order, one charge", async () => {
    const { cart, intentId } = await confirmedBeforeAsapCloses();
    app.clock.now = dubai("22:42");
    const report = await pay(app, cart, undefined);
    expect(report.status, report.text).toBe(200);
    expect((report.body as ResultBody).status).toBe("order_pending");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toEqual([{ intentId, amount: cart.total, currency: "aed" }]);
    // The webhook that follows finds the order placed and moves nothing.
    expect((await deliver("payment_intent.succeeded", intentId)).status).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("is settled alike when the webhook comes first, and the late report answers the same order", async () => {
    const { cart, intentId } = await confirmedBeforeAsapCloses();
    app.clock.now = dubai("22:42");
    expect((await deliver("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    const report = await pay(app, cart, undefined);
    expect(report.status, report.text).toBe(200);
    expect((report.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("but a payment the server would confirm at 22:42 is refused before the card is charged", async () => {
    app.clock.now = dubai("22:30");
    const cart = await pricedCart(app, duneHummus, DUNE.locationId);
    const intentId = await sessionIntentId(app, cart);
    app.clock.now = dubai("22:42");
    const refused = await pay(app, cart, "pm_card_visa");
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["SCHEDULE_CLOSED"] } });
    expect(chargesOf(fake, intentId)).toHaveLength(0);
    expect(await readCart(app, cart)).toMatchObject({ status: "OPEN" });
  });

  it("a quote expired by the report (22:46) is refused by the report and left uncaptured by the webhook alike", async () => {
    const { cart, intentId } = await confirmedBeforeAsapCloses();
    app.clock.now = dubai("22:46");
    const report = await pay(app, cart, undefined);
    expect(report.status, report.text).toBe(409);
    expect(report.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["QUOTE_EXPIRED"] } });
    expect((await deliver("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(0);
    expect(chargesOf(fake, intentId)).toHaveLength(0);
  });
});

describe("a payment confirmed in the browser before its discount code was withdrawn", () => {
  const setActive = (active: boolean) => app.deps.database.db.update(discounts).set({ active }).where(and(eq(discounts.locationId, HARBOR.locationId), eq(discounts.code, "WELCOME10")));

  it("is settled by the report at the discounted total the customer confirmed", async () => {
    app.clock.now = dubai("22:30"); // 13:30 in Boston: Harbor Kitchen is open
    const cart = await pricedCart(app);
    const applied = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { cartId: cart.cartId, code: "WELCOME10" },
    });
    expect(applied.status, applied.text).toBe(200);
    const body = applied.body as { quoteFingerprint: string; orderTotalWithServiceFeeAmount: number };
    cart.etag = applied.headers.get("etag") ?? cart.etag;
    cart.quoteFingerprint = body.quoteFingerprint;
    cart.total = body.orderTotalWithServiceFeeAmount;
    const intentId = await sessionIntentId(app, cart);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    await setActive(false);
    try {
      const report = await pay(app, cart, undefined);
      expect(report.status, report.text).toBe(200);
      expect((report.body as ResultBody).status).toBe("order_pending");
      expect(chargesOf(fake, intentId)).toEqual([{ intentId, amount: cart.total, currency: "usd" }]);
    } finally {
      await setActive(true);
    }
  });
});

describe("an order time changed after the payment session", () => {
  const pancakes = { productId: "prd_hk_blueberry_pancakes", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };
  /** Boston local time on Monday 2030-01-07 (EST), as UTC. */
  const boston = (time: string) => new Date(`2030-01-07T${time}:00-05:00`);

  it("leaves the confirmed intent matching no quote: the report is refused, the webhook captures nothing", async () => {
    app.clock.now = boston("09:00");
    const cart = await pricedCart(app, pancakes);
    const intentId = await sessionIntentId(app, cart);
    const sessionFingerprint = cart.quoteFingerprint;
    // Breakfast booked for the evening: the quote is another one now.
    const evening = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2030-01-07", orderTime: "19:00" });
    expect(evening.status, evening.text).toBe(200);
    const eveningFingerprint = (evening.body as { quoteFingerprint: string }).quoteFingerprint;
    expect(eveningFingerprint).not.toBe(sessionFingerprint);

    // The client secret it already holds still confirms in the browser.
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    for (const quoteFingerprint of [sessionFingerprint, eveningFingerprint]) {
      const report = await pay(app, cart, undefined, { quoteFingerprint });
      expect(report.status, report.text).toBe(409);
    }
    expect((await deliver("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    expect(await orderCount(app, cart.cartId)).toBe(0);
    expect(chargesOf(fake, intentId)).toHaveLength(0);

    // A payment session for the evening says why: pancakes are not served then.
    cart.quoteFingerprint = eveningFingerprint;
    const refused = await paymentSession(app, cart);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["SCHEDULE_CLOSED"] } });
  });
});

describe("a payment confirmed in the browser that nobody reported, its cart expired since", () => {
  it("is payment_pending while the card holds the authorisation, and cart_expired once the job has released it", async () => {
    const { cart, intentId } = await confirmedBeforeAsapCloses();
    // Neither the report nor the webhook comes, and the cart expires (idle) with the card held.
    advanceClock(app, 25 * 3_600_000);
    const held = await orderResult(app, cart);
    expect(held.body, held.text).toMatchObject({ status: "payment_pending", pollAfterMs: 30_000 });
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
    // The reconciliation job, as Vercel Cron runs it, cancels it.
    const job = await app.fetch(new Request("http://localhost/api/jobs/reconcile-payments", { method: "POST", headers: { [PEER_ADDRESS_HEADER]: "198.51.100.20", authorization: `Bearer ${CRON_SECRET}` } }));
    expect(job.status).toBe(200);
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    const released = await orderResult(app, cart);
    expect(released.body, released.text).toMatchObject({ status: "failed", failure: { code: "cart_expired" } });
    expect(chargesOf(fake, intentId)).toEqual([]);
    expect(await orderCount(app, cart.cartId)).toBe(0);
  });
});
