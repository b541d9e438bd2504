import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "../db/schema";
import { createSimulatedProcessor } from "../server/integrations/payments/simulated";
import { PaymentProcessorError, type PaymentProcessor } from "../server/integrations/payments/types";
import { runJob } from "../server/jobs/run";
import { duneHummus, orderResult, pay, paymentSession, pricedCart, readCart, type ResultBody } from "./checkout-helpers";
import { createTestApp, DUNE, type TestApp } from "./harness";

const simulated = createSimulatedProcessor({ webhookSecret: "whsec_review_d_late" });
const faults = { confirmDown: 0 };
const faulty = (inner: PaymentProcessor): PaymentProcessor => ({
  ...inner,
  // The processor is out of reach: nothing happens there.
  confirmIntent: (request) => (faults.confirmDown-- > 0 ? Promise.reject(new PaymentProcessorError("unavailable", "processor down (test)")) : inner.confirmIntent(request)),
});
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: faulty(simulated) }) });
});
afterAll(async () => app.close());
const dubai = (at: string) => new Date(`${at}+04:00`);

describe("a server-side confirmation that met a processor outage", () => {
  it("is sent (the card charged) hours later by the job, for an ASAP order at a closed restaurant, quote long expired", async () => {
    app.clock.now = dubai("2026-12-02T22:30:00");
    const cart = await pricedCart(app, duneHummus, DUNE.locationId);
    expect((await paymentSession(app, cart)).status).toBe(200);
    faults.confirmDown = 1;
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status).toBe(503);
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    // Nothing was authorized: the service could still stop the card.
    expect(simulated.ledger.allIntents().find((i) => i.metadata.cartId === cart.cartId)?.status).toBe("requires_payment_method");

    // The processor is back 5 hours later, at 03:30 Dubai: Dune Grill is closed, the 15-minute quote expired at 22:45.
    app.clock.now = dubai("2026-12-03T03:30:00");
    const report = await runJob(app.deps, "reconcile-payments");
    console.log("job:", JSON.stringify(report.details));
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    const intentId = simulated.ledger.allIntents().find((i) => i.metadata.cartId === cart.cartId)!.id;
    console.log("order placed at", order?.placedAt.toISOString(), "pickup", order?.pickupType, "readyAt", order?.readyAt?.toISOString(), "charges", simulated.ledger.charges.filter((c) => c.intentId === intentId).length);
    console.log("result:", JSON.stringify((await orderResult(app, cart)).body as ResultBody));
    expect(order).toBeUndefined();
  });
});
