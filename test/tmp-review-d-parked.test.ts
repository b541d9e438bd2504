import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedProcessor } from "../server/integrations/payments/simulated";
import { PaymentProcessorError, type PaymentProcessor } from "../server/integrations/payments/types";
import { runJob } from "../server/jobs/run";
import { attemptsOf, orderResult, pay, paymentSession, pricedCart, readCart, type ResultBody } from "./checkout-helpers";
import { createTestApp, type TestApp } from "./harness";

const simulated = createSimulatedProcessor({ webhookSecret: "whsec_review_d_parked" });
const faults = { capture: undefined as Error | undefined };
const faulty = (inner: PaymentProcessor): PaymentProcessor => ({
  ...inner,
  captureIntent: (request) => (faults.capture ? Promise.reject(faults.capture) : inner.captureIntent(request)),
});
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: faulty(simulated) }) });
});
afterAll(async () => app.close());

describe("a parked payment after an earlier decline", () => {
  it("answers payment_pending (the card holds money), not the old decline", async () => {
    const cart = await pricedCart(app);
    expect((await paymentSession(app, cart)).status).toBe(200);
    // First card declined: a failed attempt, cart OPEN again.
    const declined = await pay(app, cart, "pm_card_chargeDeclined");
    expect((declined.body as ResultBody).status).toBe("failed");
    // Second card authorizes; the capture is refused for good.
    faults.capture = new PaymentProcessorError("rejected", "capture refused (test)");
    expect((await pay(app, cart, "pm_card_visa")).status).toBe(500);
    app.clock.now = new Date(app.clock.now.getTime() + (app.env.PAYMENT_RECONCILE_AFTER_SECONDS + 1) * 1000);
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details.parked).toBe(1);
    expect((await attemptsOf(app, cart.cartId)).map((a) => a.status).sort()).toEqual(["failed", "needs_review"]);
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect(simulated.ledger.allIntents().find((i) => i.metadata.cartId === cart.cartId)?.status).toBe("requires_capture");
    const result = (await orderResult(app, cart)).body as ResultBody;
    console.log("order-result of the parked cart:", JSON.stringify(result));
    expect(result.status).toBe("payment_pending");
  });
});

describe("a browser-confirmed payment after an earlier decline", () => {
  it("order-result says failed (the old decline) while the new authorization is then captured into an order", async () => {
    faults.capture = undefined;
    const cart = await pricedCart(app);
    expect((await paymentSession(app, cart)).status).toBe(200);
    expect(((await pay(app, cart, "pm_card_chargeDeclined")).body as ResultBody).status).toBe("failed");
    const intent = simulated.ledger.allIntents().find((i) => i.metadata.cartId === cart.cartId)!;
    // The customer confirms another card in the browser (Stripe.js); the report is lost, the client polls.
    simulated.ledger.confirm(intent.id, "pm_card_visa", undefined);
    const polled = (await orderResult(app, cart)).body as ResultBody;
    console.log("poll after the browser confirmation:", JSON.stringify(polled));
    app.clock.now = new Date(app.clock.now.getTime() + (app.env.PAYMENT_RECONCILE_AFTER_SECONDS + 1) * 1000);
    await runJob(app.deps, "reconcile-payments");
    const charges = simulated.ledger.charges.filter((c) => c.intentId === intent.id);
    const after = (await orderResult(app, cart)).body as ResultBody;
    console.log("charges:", charges.length, "result after reconcile:", JSON.stringify(after));
    expect(charges).toHaveLength(1);
    expect(polled.status).toBe("payment_pending");
  });
});
