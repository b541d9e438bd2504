import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../server/jobs/run";
import { orderResult, paymentSession, pricedCart, sessionIntentOf } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";
import { paymentSessions } from "../../db/schema";
import { eq } from "drizzle-orm";

/**
 * The simulated processor keeps its intents in memory: after a restart (a serverless cold start, a second
 * instance) a payment session names an intent it no longer knows. An expired cart with such an intent is
 * told expired, and the reconciliation job forgets the intent instead of visiting the cart for a week.
 */
let before: TestApp;
let after: TestApp | undefined;
beforeAll(async () => {
  before = await createTestApp();
});
afterAll(async () => {
  await after?.close();
  await before.close();
});

describe("an expired cart whose payment session intent the restarted simulated processor no longer knows", () => {
  it("answers cart_expired, and the job forgets the intent", async () => {
    const cart = await pricedCart(before);
    expect((await paymentSession(before, cart)).status).toBe(200);
    expect(await sessionIntentOf(before, cart.cartId)).toMatch(/^pi_/);
    // The process restarts: the same database, a fresh in-memory ledger; the cart expires meanwhile.
    after = await createTestApp({ database: before.deps.database });
    after.clock.now = new Date(before.clock.now.getTime() + 25 * 3_600_000);
    expect((await orderResult(after, cart)).body).toMatchObject({ status: "failed", failure: { code: "cart_expired" } });

    const report = await runJob(after.deps, "reconcile-payments");
    expect(report.attention).toEqual([]);
    const [session] = await after.deps.database.db.select({ intentId: paymentSessions.intentId }).from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    expect(session?.intentId).toBeNull();
    expect((await orderResult(after, cart)).body).toMatchObject({ status: "failed", failure: { code: "cart_expired" } });
  });
});
