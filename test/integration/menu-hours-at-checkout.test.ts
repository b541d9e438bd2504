import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderCount, pay, paymentSession, pricedCart } from "../checkout-helpers";
import { createTestApp, mutate, type TestApp } from "../harness";

/**
 * A line is paid for only at a time its menu is served. Harbor Kitchen (America/New_York, open all
 * day) serves Breakfast 07:00-11:30: pancakes added at 11:25 cannot be paid for as ASAP at 11:35,
 * nor booked for the evening, and can for a breakfast time the next morning.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const pancakes = { productId: "prd_hk_blueberry_pancakes", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };
/** New York local time on Monday 2030-01-07 (EST, UTC-5). */
const newYork = (time: string, date = "2030-01-07") => new Date(`${date}T${time}:00-05:00`);

function expectUnserved(response: { status: number; body: unknown; text: string }) {
  expect(response.status, response.text).toBe(409);
  expect(response.body).toMatchObject({
    code: "REQUOTE_REQUIRED",
    details: { reasons: ["SCHEDULE_CLOSED"], blockers: [{ code: "SCHEDULE_CLOSED", paths: ["items.0.servedAtOrderTime"] }] },
  });
}

describe("a breakfast line outside breakfast hours", () => {
  it("pays at 11:25; is refused as ASAP at 11:35 and for 19:00, and pays for 08:00 the next day", async () => {
    app.clock.now = newYork("11:25");
    const morning = await pricedCart(app, pancakes);
    expect((await paymentSession(app, morning)).status).toBe(200);

    const cart = await pricedCart(app, pancakes);
    app.clock.now = newYork("11:35");
    expectUnserved(await paymentSession(app, cart));
    expectUnserved(await pay(app, cart, "pm_card_visa"));

    const evening = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2030-01-07", orderTime: "19:00" });
    expect(evening.status, evening.text).toBe(200);
    expectUnserved(await paymentSession(app, cart));
    expect(await orderCount(app, cart.cartId)).toBe(0);

    const breakfast = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2030-01-08", orderTime: "08:00" });
    expect(breakfast.status, breakfast.text).toBe(200);
    // The order time is part of the quote: the payment names the quote as it is now.
    cart.quoteFingerprint = (breakfast.body as { quoteFingerprint: string }).quoteFingerprint;
    const session = await paymentSession(app, cart);
    expect(session.status, session.text).toBe(200);
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status, paid.text).toBe(200);
  });
});
