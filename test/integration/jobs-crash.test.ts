import { advanceClock, cartRowOf } from "../checkout-helpers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentSessions } from "../../db/schema";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { PaymentProcessorError, type PaymentProcessor } from "../../server/integrations/payments/types";
import { runJob } from "../../server/jobs/run";
import type { JobName } from "../../server/jobs/types";
import { attemptsOf, crashSwitch, orderCount, pay, paymentSession, pricedCart, readCart, sessionIntentOf } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";

/**
 * The jobs meeting payments left in flight by a crash after the processor answered, or a processor
 * outage. In-process only: both are injected into the app's processor, which a production server does
 * not let a test replace (vitest.after-build.config.ts); the job route itself is shown in jobs.test.ts.
 */
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_jobs_crash_test" });
const crash = crashSwitch();
/** Set to make every processor call fail as unreachable. */
let processorDown = false;
/** Intents whose every call fails as unreachable (a key whose error the processor keeps answering). */
const intentsDown = new Set<string>();

function flaky(inner: PaymentProcessor): PaymentProcessor {
  const intentOf = (args: unknown[]) => (typeof args[0] === "string" ? args[0] : (args[0] as { intentId?: string | null } | undefined)?.intentId);
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      processorDown || intentsDown.has(intentOf(args) ?? "") ? Promise.reject(new PaymentProcessorError("unavailable", "processor unreachable (test)")) : call(...args);
  return {
    ...inner,
    createOrUpdateIntent: guard((request: Parameters<PaymentProcessor["createOrUpdateIntent"]>[0]) => inner.createOrUpdateIntent(request)),
    retrieveIntent: guard((intentId: string) => inner.retrieveIntent(intentId)),
    confirmIntent: guard((request: Parameters<PaymentProcessor["confirmIntent"]>[0]) => inner.confirmIntent(request)),
    captureIntent: guard((request: Parameters<PaymentProcessor["captureIntent"]>[0]) => inner.captureIntent(request)),
    cancelIntent: guard((request: Parameters<PaymentProcessor["cancelIntent"]>[0]) => inner.cancelIntent(request)),
  };
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: flaky(crash.wrap(simulated)) }) });
});
afterAll(async () => {
  await app.close();
});

const minutes = (n: number) => n * 60_000;
const advance = (ms: number) => advanceClock(app, ms);
const cartRow = (cartId: string) => cartRowOf(app, cartId);

const job = (name: JobName) => runJob(app.deps, name);

describe("expire-carts", () => {
  it("leaves a LOCKED cart (a payment in flight) to the reconciliation job", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
    advance(minutes(app.env.CART_IDLE_TTL_MINUTES + 1));
    await job("expire-carts");
    expect((await cartRow(cart.cartId)).status).toBe("LOCKED");
    // Clean up for the next tests: carry the payment through.
    await job("reconcile-payments");
    expect((await cartRow(cart.cartId)).status).toBe("COMPLETED");
  });
});

describe("reconcile-payments", () => {
  it("finishes a payment left LOCKED by a crash after the confirmation: one order, one charge", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
    expect((await cartRow(cart.cartId)).status).toBe("LOCKED");

    // Inside the grace period the job leaves a payment alone: its client may still be finishing it.
    const early = await job("reconcile-payments");
    expect(early.details.completed).toBe(0);
    expect((await cartRow(cart.cartId)).status).toBe("LOCKED");

    advance(app.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1000);
    const report = await job("reconcile-payments");
    expect(report.details).toMatchObject({ completed: 1, errors: 0 });
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await cartRow(cart.cartId)).status).toBe("COMPLETED");
    const [session] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    expect(simulated.ledger.charges.filter((charge) => charge.intentId === session?.intentId)).toHaveLength(1);

    const again = await job("reconcile-payments");
    expect(again.details.completed).toBe(0);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });

  it("releases a cart whose stuck payment was declined", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    expect((await pay(app, cart, "pm_card_chargeDeclined")).status).toBe(500);
    advance(app.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1000);
    const report = await job("reconcile-payments");
    expect(report.details.released).toBe(1);
    const row = await cartRow(cart.cartId);
    expect(row.status).toBe("OPEN");
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["failed"]);
    expect(await orderCount(app, cart.cartId)).toBe(0);
  });

  it("stops at a processor outage, reports it, and finishes on the next run", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
    advance(app.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1000);
    processorDown = true;
    try {
      const failed = await job("reconcile-payments");
      // Every cart the run meets fails alike (earlier tests' carts too); it ends after a few in a row.
      expect(failed.complete).toBe(false);
      expect(failed.details.errors).toBeGreaterThanOrEqual(1);
      expect((await cartRow(cart.cartId)).status).toBe("LOCKED");
    } finally {
      processorDown = false;
    }
    expect((await job("reconcile-payments")).details.completed).toBe(1);
    expect((await readCart(app, cart)).status).toBe("COMPLETED");
  });

  it("passes over a cart whose processor calls fail and settles the carts after it; the next run finishes it", async () => {
    const crashed = [];
    for (let index = 0; index < 2; index += 1) {
      const cart = await pricedCart(app);
      await paymentSession(app, cart);
      crash.after = "confirmIntent";
      expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
      crashed.push(cart);
    }
    // The job visits carts in id order: the first one's processor calls fail.
    const [stuck, other] = crashed.sort((a, b) => (a.cartId < b.cartId ? -1 : 1));
    if (!stuck || !other) throw new Error("two carts expected");
    advance(app.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1000);
    intentsDown.add(await sessionIntentOf(app, stuck.cartId));
    try {
      const report = await job("reconcile-payments");
      expect(report.complete).toBe(false);
      expect(report.details.errors).toBe(1);
      expect((await cartRow(stuck.cartId)).status).toBe("LOCKED");
      expect((await readCart(app, other)).status).toBe("COMPLETED");
    } finally {
      intentsDown.clear();
    }
    expect((await job("reconcile-payments")).complete).toBe(true);
    expect((await readCart(app, stuck)).status).toBe("COMPLETED");
  });
});
