import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeOrder, duneHummus, orderCount, pay, paymentSession, pricedCart, refresh } from "../checkout-helpers";
import { createTestApp, DUNE, mutate, type TestApp } from "../harness";

/**
 * A closed restaurant takes no ASAP order. Dune Grill (Asia/Dubai, UTC+4, 10:00-23:00; Fridays
 * 12:00-23:30), at fixed clocks: an ASAP cart cannot get a payment session or pay while it is closed,
 * and can once a bookable later time is set; a later time that stops being bookable before payment
 * is refused at payment too.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const hummus = duneHummus;
/** Dubai local time as UTC: Dubai is UTC+4 all year. Wednesday 2026-12-02. */
const dubai = (time: string, date = "2026-12-02") => new Date(`${date}T${time}:00+04:00`);

function expectScheduleClosed(response: { status: number; body: unknown }) {
  expect(response.status, JSON.stringify(response.body)).toBe(409);
  expect(response.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: expect.arrayContaining(["SCHEDULE_CLOSED"]) as unknown } });
}

describe("an ASAP cart at a closed location", () => {
  it("gets no payment session and cannot pay at 04:35; after a later time is set it gets one and pays", async () => {
    app.clock.now = dubai("04:35");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    expect(await refresh(app, cart)).toMatchObject({ pickupType: "ASAP", orderDate: "", orderTime: "" });
    expectScheduleClosed(await paymentSession(app, cart));
    expectScheduleClosed(await pay(app, cart, "pm_card_visa"));
    expect(await orderCount(app, cart.cartId)).toBe(0);

    // validate-and-update says why and what to do.
    const validated = await mutate(app, cart, "PUT", "/validate-and-update", {});
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body).toMatchObject({ catalogRevalidation: { reasonCodes: expect.arrayContaining(["SCHEDULE_CLOSED"]) as unknown } });

    const later = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2026-12-02", orderTime: "10:30" });
    expect(later.status, later.text).toBe(200);
    await refresh(app, cart);
    const session = await paymentSession(app, cart);
    expect(session.status, session.text).toBe(200);
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status, paid.text).toBe(200);
  });

  it("pays ASAP while open, at 12:00, and is refused again from closing time, 23:00", async () => {
    app.clock.now = dubai("12:00");
    const open = await pricedCart(app, hummus, DUNE.locationId);
    expect((await paymentSession(app, open)).status).toBe(200);

    app.clock.now = dubai("22:59");
    const lastMinute = await pricedCart(app, hummus, DUNE.locationId);
    app.clock.now = dubai("23:00");
    expectScheduleClosed(await paymentSession(app, lastMinute));
  });

  it("refuses at payment a later time that has stopped being bookable since it was set", async () => {
    app.clock.now = dubai("09:00");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    expect((await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2026-12-02", orderTime: "10:30" })).status).toBe(200);
    await refresh(app, cart);
    expect((await paymentSession(app, cart)).status).toBe(200);
    // 10:20: a 10:30 pickup is inside the 20-minute lead time now.
    app.clock.now = dubai("10:20");
    expectScheduleClosed(await pay(app, cart, "pm_card_visa"));
    expect(await orderCount(app, cart.cartId)).toBe(0);
  });
});

describe("an ASAP order must be ready before the location closes", () => {
  it("at 22:59, one minute before 23:00, ASAP is not offered, not accepted and not paid (takeout lead 20 minutes)", async () => {
    app.clock.now = dubai("22:39");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    expect((await paymentSession(app, cart)).status).toBe(200);

    app.clock.now = dubai("22:59");
    const intervals = await app.call("GET", `/locations/${DUNE.locationId}/time-intervals?date=2026-12-02`);
    expect(intervals.status, intervals.text).toBe(200);
    const takeout = (intervals.body as { methods: { fulfillmentMethod: string; asapAvailable: boolean }[] }).methods.find((method) => method.fulfillmentMethod === "takeout");
    expect(takeout?.asapAvailable).toBe(false);
    expectScheduleClosed(await pay(app, cart, "pm_card_visa"));
    const late = await pricedCart(app, hummus, DUNE.locationId);
    const asap = await mutate(app, late, "PUT", "/update-order-time", { pickupType: "ASAP" });
    expect(asap.status, asap.text).toBe(400);
    expect(asap.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringMatching(/closes before/) as unknown });
    expectScheduleClosed(await paymentSession(app, late));
    expect(await orderCount(app, cart.cartId)).toBe(0);
  });
});

describe("a later time is bookable up to 30 days ahead", () => {
  it("refuses 9999-12-31 (its ready time is past what the database stores) and lists no times for it", async () => {
    app.clock.now = dubai("12:00");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    const far = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "9999-12-31", orderTime: "19:00" });
    expect(far.status, far.text).toBe(400);
    expect(far.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fields: [{ path: "orderTime", message: expect.stringMatching(/30 days ahead/) as unknown }] } });
    const intervals = await app.call("GET", `/locations/${DUNE.locationId}/time-intervals?date=9999-12-31`);
    expect(intervals.status, intervals.text).toBe(200);
    for (const method of (intervals.body as { methods: { times: unknown[] }[] }).methods) expect(method.times).toEqual([]);
    // The last bookable day (2027-01-01, 30 days after 2026-12-02) takes one; the day after does not.
    expect((await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2027-01-01", orderTime: "19:00" })).status).toBe(200);
    await refresh(app, cart);
    expect((await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2027-01-02", orderTime: "19:00" })).status).toBe(400);
  });
});

describe("the receipt says when the order will be ready and gives a number to read out", () => {
  const receiptOf = async (order: { receiptId: string; receiptToken: string }) => {
    const response = await app.call("GET", `/receipts/${order.receiptId}`, { headers: { "X-Receipt-Token": order.receiptToken } });
    expect(response.status, response.text).toBe(200);
    return response.body as { orderId: string; orderNumber: string; placedAt: string; readyAt: string | null };
  };

  it("ASAP at 12:00: ready at placement plus the takeout lead time (20 minutes)", async () => {
    app.clock.now = dubai("12:00");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    await refresh(app, cart);
    const receipt = await receiptOf(await completeOrder(app, cart));
    expect(receipt.placedAt).toBe(dubai("12:00").toISOString());
    expect(receipt.readyAt).toBe(dubai("12:20").toISOString());
    expect(receipt.orderNumber).toMatch(/^[0-9A-Z]{3}-[0-9A-Z]{3}$/);
  });

  it("LATER: ready at the booked local time, whatever the lead time", async () => {
    app.clock.now = dubai("09:00");
    const cart = await pricedCart(app, hummus, DUNE.locationId);
    expect((await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2026-12-02", orderTime: "18:45" })).status).toBe(200);
    await refresh(app, cart);
    const receipt = await receiptOf(await completeOrder(app, cart));
    expect(receipt.readyAt).toBe(dubai("18:45").toISOString());
    expect(receipt.orderNumber).not.toBe(receipt.orderId);
  });
});

