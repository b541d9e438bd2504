import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentSessions } from "../../db/schema";
import { createSimulatedProcessor } from "../../server/integrations/payments/simulated";
import { crashSwitch, orderCount, orderResult, pay, paymentSession, pricedCart, readCart, type ResultBody } from "../checkout-helpers";
import { sessionIntentOf } from "../checkout-helpers";
import { createTestApp, idemKey, mutate, type TestApp } from "../harness";

/**
 * Crashes at chosen points of a payment (after the processor answered, before the service used the
 * answer), on the embedded default. In-process only: the crash is injected into the app's processor,
 * which a production server does not let a test replace (vitest.after-build.config.ts).
 */
const simulated = createSimulatedProcessor({ webhookSecret: "whsec_checkout_crash_test" });
const ledger = simulated.ledger;
const crash = crashSwitch();

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ overrides: () => ({ payments: crash.wrap(simulated) }) });
});
afterAll(async () => {
  await app.close();
});

const chargesOf = (intentId: string) => ledger.charges.filter((charge) => charge.intentId === intentId);
const sessionIntent = (cartId: string) => sessionIntentOf(app, cartId);

describe("payment session", () => {
  it("recovers from a crash after the intent was created but before it was recorded: one intent", async () => {
    const cart = await pricedCart(app);
    const intents = ledger.intentCount;
    crash.after = "createOrUpdateIntent";
    const crashed = await paymentSession(app, cart);
    expect(crashed.status).toBe(500);
    expect(crashed.text).not.toMatch(/simulated crash/);
    const [pending] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    expect(pending?.pending).toMatchObject({ op: "create" });
    const retried = await paymentSession(app, cart);
    expect(retried.status, retried.text).toBe(200);
    expect(ledger.intentCount).toBe(intents + 1);
    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(await sessionIntent(cart.cartId))).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});

describe("payments and the order result", () => {
  it("a crash after the card was confirmed leaves the cart LOCKED; the next poll finishes with the same confirmation: one charge", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    crash.after = "confirmIntent";
    const crashed = await pay(app, cart, "pm_card_visa");
    expect(crashed.status).toBe(500);
    const locked = await readCart(app, cart);
    expect(locked.status).toBe("LOCKED");
    const blocked = await mutate(app, { ...cart, etag: `"cart-${locked.revision}"` }, "PUT", "/gratuity", { rate: "0.15" });
    expect((blocked.body as { code: string }).code).toBe("CART_IMMUTABLE");
    const intentId = await sessionIntent(cart.cartId);
    expect(ledger.retrieve(intentId).status).toBe("requires_capture");

    const polled = await orderResult(app, cart);
    expect(polled.body).toMatchObject({ status: "order_pending" });
    expect(chargesOf(intentId)).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await readCart(app, cart)).status).toBe("COMPLETED");
  });

  it("a crash after the capture: the retry of the same request finds the money taken and places the one order", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const key = idemKey();
    crash.after = "captureIntent";
    expect((await pay(app, cart, "pm_card_visa", { key })).status).toBe(500);
    expect(await orderCount(app, cart.cartId)).toBe(0);
    const retried = await pay(app, cart, "pm_card_visa", { key });
    expect(retried.status, retried.text).toBe(200);
    expect((retried.body as ResultBody).status).toBe("order_pending");
    expect(chargesOf(await sessionIntent(cart.cartId))).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});
