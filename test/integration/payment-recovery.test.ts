import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paymentAttempts } from "../../db/schema";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { PaymentProcessorError, type PaymentProcessor } from "../../server/integrations/payments/types";
import { runJob } from "../../server/jobs/run";
import { duneHummus, orderCount, orderResult, pay, paymentSession, pricedCart, readCart, type CheckoutCart, type ResultBody } from "../checkout-helpers";
import { createTestApp, DUNE, type TestApp } from "../harness";

/**
 * A payment that fails for any reason other than a decline must leave the cart where the customer
 * or the reconciliation job can carry it on; a job run that meets a failure it cannot cure releases
 * the cart (the card holds nothing) or parks it for review (it may hold money), and says which.
 */
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_recovery_test" });
const faults = { confirm: undefined as Error | undefined, confirmThenFail: undefined as Error | undefined, capture: undefined as Error | undefined, retrieveFailures: 0 };

function faulty(inner: PaymentProcessor): PaymentProcessor {
  return {
    ...inner,
    createOrUpdateIntent: (request) => inner.createOrUpdateIntent(request),
    retrieveIntent: (intentId) => {
      if (faults.retrieveFailures > 0) {
        faults.retrieveFailures -= 1;
        return Promise.reject(new PaymentProcessorError("rejected", "retrieve refused (test)"));
      }
      return inner.retrieveIntent(intentId);
    },
    confirmIntent: (request) => {
      if (faults.confirm) return Promise.reject(faults.confirm);
      const thenFail = faults.confirmThenFail;
      faults.confirmThenFail = undefined;
      return thenFail ? inner.confirmIntent(request).then(() => Promise.reject(thenFail)) : inner.confirmIntent(request);
    },
    captureIntent: (request) => (faults.capture ? Promise.reject(faults.capture) : inner.captureIntent(request)),
    cancelIntent: (request) => inner.cancelIntent(request),
  };
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: faulty(simulated) }) });
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  faults.confirm = undefined;
  faults.confirmThenFail = undefined;
  faults.capture = undefined;
  faults.retrieveFailures = 0;
});

async function readyToPay(): Promise<CheckoutCart> {
  const cart = await pricedCart(app);
  const session = await paymentSession(app, cart);
  expect(session.status).toBe(200);
  cart.etag = session.headers.get("etag") ?? cart.etag;
  return cart;
}

async function attemptStatuses(cartId: string): Promise<string[]> {
  const rows = await app.deps.database.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId));
  return rows.map((row) => row.status).sort();
}

/** The payments' idle time before the job takes them over. */
function passReconcileDelay(): void {
  app.clock.now = new Date(app.clock.now.getTime() + (app.env.PAYMENT_RECONCILE_AFTER_SECONDS + 1) * 1000);
}

describe("a confirmation the processor refuses", () => {
  it("refused as misconfigured (rejected): the attempt fails, the cart reopens, another card then pays", async () => {
    const cart = await readyToPay();
    faults.confirm = new PaymentProcessorError("rejected", "No such API key (test)");
    const refused = await pay(app, cart, "pm_card_visa");
    expect(refused.status).toBe(200);
    expect((refused.body as ResultBody).status).toBe("failed");
    expect((refused.body as ResultBody).failure?.code).toBe("processor_error");
    expect((await readCart(app, cart)).status).toBe("OPEN");

    faults.confirm = undefined;
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status).toBe(200);
    expect(["order_pending", "completed"]).toContain((paid.body as ResultBody).status);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});

describe("reconcile-payments meets a failure it cannot cure", () => {
  it("releases a cart whose card holds nothing, names it, and leaves nothing for the next run", async () => {
    const cart = await readyToPay();
    // The confirmation is refused and the intent cannot be read at that moment: the request fails and the cart stays LOCKED.
    faults.confirm = new PaymentProcessorError("rejected", "refused (test)");
    faults.retrieveFailures = 1;
    const failed = await pay(app, cart, "pm_card_visa");
    expect(failed.status).toBe(500);
    expect((await readCart(app, cart)).status).toBe("LOCKED");

    // Every later try meets the same refusal; the intent is readable again and shows nothing authorized.
    passReconcileDelay();
    faults.retrieveFailures = 1;
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "released", reason: "INTERNAL_ERROR" }]);
    expect(report.details.released).toBe(1);
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(await attemptStatuses(cart.cartId)).toEqual(["failed"]);
    const result = await orderResult(app, cart);
    expect((result.body as ResultBody).failure?.code).toBe("processor_error");

    const next = await runJob(app.deps, "reconcile-payments");
    expect(next.attention).toEqual([]);
    expect(next.details.errors).toBe(0);
  });

  it("parks a cart whose card is authorized but cannot be captured: LOCKED, out of every automatic path, named once", async () => {
    const cart = await readyToPay();
    faults.capture = new PaymentProcessorError("rejected", "capture refused (test)");
    // One capture per settlement: refused, the payment stays pending for the customer (never an internal error).
    const refused = await pay(app, cart, "pm_card_visa");
    expect(refused.body, refused.text).toMatchObject({ status: "payment_pending" });
    expect((await readCart(app, cart)).status).toBe("LOCKED");

    passReconcileDelay();
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "parked", reason: "INTERNAL_ERROR" }]);
    expect(report.details.parked).toBe(1);
    expect(await attemptStatuses(cart.cartId)).toEqual(["needs_review"]);
    // The customer is not told it failed (the card holds money) and cannot pay a second time.
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
    const again = await pay(app, cart, "pm_card_visa");
    expect(((again.body as ResultBody) ?? {}).status).toBe("payment_pending");
    expect(await orderCount(app, cart.cartId)).toBe(0);

    const next = await runJob(app.deps, "reconcile-payments");
    expect(next.attention).toEqual([]);
    expect(next.details.errors).toBe(0);
  });

  it("answers payment_pending for a parked payment made after a declined card, not the earlier decline", async () => {
    const cart = await readyToPay();
    const declined = await pay(app, cart, "pm_card_chargeDeclined");
    expect((declined.body as ResultBody).status).toBe("failed");
    faults.capture = new PaymentProcessorError("rejected", "capture refused (test)");
    expect(((await pay(app, cart, "pm_card_visa")).body as ResultBody).status).toBe("payment_pending");
    passReconcileDelay();
    expect((await runJob(app.deps, "reconcile-payments")).details.parked).toBe(1);
    expect(await attemptStatuses(cart.cartId)).toEqual(["failed", "needs_review"]);
    // The second card holds money: told "failed", the customer would pay again.
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
    expect(((await pay(app, cart, "pm_card_visa")).body as ResultBody).status).toBe("payment_pending");
    expect(await orderCount(app, cart.cartId)).toBe(0);
  });
});

describe("a card confirmed in the browser after a decline, its report lost", () => {
  it("is found by the next result poll, which settles it as the webhook would: one order, one charge, never 'failed'", async () => {
    const cart = await readyToPay();
    expect(((await pay(app, cart, "pm_card_chargeDeclined")).body as ResultBody).status).toBe("failed");
    const intent = simulated.ledger.allIntents().find((each) => each.metadata.cartId === cart.cartId);
    if (!intent) throw new Error("no intent for the cart");
    simulated.ledger.confirm(intent.id, "pm_card_visa", undefined);

    const polled = (await orderResult(app, cart)).body as ResultBody;
    expect(polled.status).not.toBe("failed");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(simulated.ledger.charges.filter((charge) => charge.intentId === intent.id)).toHaveLength(1);
  });

  it("while nothing was confirmed again, the poll still answers the decline", async () => {
    const cart = await readyToPay();
    expect(((await pay(app, cart, "pm_card_chargeDeclined")).body as ResultBody).status).toBe("failed");
    expect(((await orderResult(app, cart)).body as ResultBody).failure?.code).toBe("generic_decline");
    expect((await readCart(app, cart)).status).toBe("OPEN");
  });
});

describe("a server-side confirmation an outage left unsent", () => {
  const unreachable = () => new PaymentProcessorError("unavailable", "processor unreachable (test)");
  const intentOf = (cartId: string) => simulated.ledger.allIntents().find((intent) => intent.metadata.cartId === cartId);
  const chargesOf = (cartId: string) => simulated.ledger.charges.filter((charge) => charge.intentId === intentOf(cartId)?.id);

  /**
   * An ASAP order at Dune Grill (served until 23:00) paid at 22:30 with a card the server confirms, `fault`
   * set for that confirmation; then the reconciliation job at `later`. The test clock is put back after.
   */
  async function payAt2230ThenReconcileAt(later: string, fault: "confirm" | "confirmThenFail", check: (cart: CheckoutCart) => Promise<void>): Promise<void> {
    const before = app.clock.now;
    try {
      app.clock.now = new Date("2026-12-02T22:30:00+04:00");
      const cart = await pricedCart(app, duneHummus, DUNE.locationId);
      expect((await paymentSession(app, cart)).status).toBe(200);
      faults[fault] = unreachable();
      expect((await pay(app, cart, "pm_card_visa")).status).toBe(503);
      expect((await readCart(app, cart)).status).toBe("LOCKED");
      faults.confirm = undefined;
      app.clock.now = new Date(later);
      await runJob(app.deps, "reconcile-payments");
      await check(cart);
    } finally {
      app.clock.now = before;
    }
  }

  it("is not sent once the quote can no longer be paid: nothing is charged, the attempt fails, the cart reopens", async () => {
    await payAt2230ThenReconcileAt("2026-12-03T03:30:00+04:00", "confirm", async (cart) => {
      expect(await orderCount(app, cart.cartId)).toBe(0);
      expect(chargesOf(cart.cartId)).toEqual([]);
      expect(intentOf(cart.cartId)?.status).not.toBe("requires_capture");
      expect(await attemptStatuses(cart.cartId)).toEqual(["failed"]);
      expect((await readCart(app, cart)).status).toBe("OPEN");
      expect(((await orderResult(app, cart)).body as ResultBody).failure?.code).toBe("quote_not_payable");
    });
  });

  it("is sent again while the quote can still be paid: one order, one charge", async () => {
    await payAt2230ThenReconcileAt("2026-12-02T22:32:00+04:00", "confirm", async (cart) => {
      expect(await orderCount(app, cart.cartId)).toBe(1);
      expect(chargesOf(cart.cartId)).toHaveLength(1);
    });
  });

  it("that reached the processor after all is carried on, even once the quote could no longer be paid: the card was authorized while it could", async () => {
    // The processor confirms, and its answer is lost on the way back.
    await payAt2230ThenReconcileAt("2026-12-02T23:45:00+04:00", "confirmThenFail", async (cart) => {
      expect(await orderCount(app, cart.cartId)).toBe(1);
      expect(chargesOf(cart.cartId)).toHaveLength(1);
    });
  });
});
