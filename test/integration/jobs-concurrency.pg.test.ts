import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, paymentSessions } from "../../db/schema";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { runJob } from "../../server/jobs/run";
import { crashSwitch, orderCount, pay, paymentSession, pricedCart } from "../checkout-helpers";
import { createTestApp, startCart, type TestApp } from "../harness";

/**
 * Jobs running on several instances at once (real Postgres: concurrent transactions on separate
 * connections). Each row is changed once, and a payment is captured once.
 */
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_jobs_concurrency" });
const crash = crashSwitch();

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { JOB_BATCH_SIZE: "4" }, overrides: () => ({ payments: crash.wrap(simulated) }) });
});
afterAll(async () => {
  await app.close();
});

describe("jobs on several instances at once", () => {
  it("expire-carts: three runners share the backlog; every cart expires exactly once", async () => {
    const handles = [];
    for (let i = 0; i < 24; i += 1) handles.push(await startCart(app));
    const ids = handles.map((handle) => handle.cartId);
    const before = new Map((await app.deps.database.db.select().from(carts).where(inArray(carts.id, ids))).map((row) => [row.id, row.revision]));
    app.clock.now = new Date(app.clock.now.getTime() + (app.env.CART_IDLE_TTL_MINUTES + 1) * 60_000);

    const reports = await Promise.all([runJob(app.deps, "expire-carts"), runJob(app.deps, "expire-carts"), runJob(app.deps, "expire-carts")]);
    expect(reports.reduce((sum, report) => sum + report.processed, 0)).toBe(24);
    expect(reports.every((report) => report.complete)).toBe(true);
    const after = await app.deps.database.db.select().from(carts).where(inArray(carts.id, ids));
    for (const row of after) {
      expect(row.status).toBe("EXPIRED");
      expect(row.revision).toBe((before.get(row.id) ?? -10) + 1);
    }
  });

  it("reconcile-payments: concurrent runners capture a stuck payment once and place one order", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
    app.clock.now = new Date(app.clock.now.getTime() + (app.env.PAYMENT_RECONCILE_AFTER_SECONDS + 1) * 1000);

    const reports = await Promise.all([runJob(app.deps, "reconcile-payments"), runJob(app.deps, "reconcile-payments"), runJob(app.deps, "reconcile-payments")]);
    expect(reports.every((report) => report.details.errors === 0)).toBe(true);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    const [session] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    expect(simulated.ledger.charges.filter((charge) => charge.intentId === session?.intentId)).toHaveLength(1);
    const [row] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
    expect(row?.status).toBe("COMPLETED");
  });
});
