import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chowderCup, completeOrder, orderCount, pay, paymentSession, type CheckoutCart } from "../checkout-helpers";
import { createTestApp, DUNE, HARBOR, mutate, startCart, type TestApp } from "../harness";

/**
 * A table-side order names its table, a room-service order its room and guest: without them the
 * kitchen cannot serve it, so checkout refuses (SERVICE_DETAILS_MISSING) until PUT .../service-details
 * sets them, and the receipt carries them.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const hummus = { productId: "prd_dg_hummus", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };

async function cartOf(method: "table_side" | "room_service" | "takeout", locationId: string, item: object): Promise<CheckoutCart> {
  const cart = await startCart(app, locationId, method);
  const added = await mutate(app, cart, "POST", "/items", item);
  expect(added.status, added.text).toBe(200);
  return { ...cart, quoteFingerprint: (added.body as { quoteFingerprint: string }).quoteFingerprint, total: 0 };
}

function expectMissing(response: { status: number; body: unknown; text: string }, path: string) {
  expect(response.status, response.text).toBe(409);
  expect(response.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["SERVICE_DETAILS_MISSING"], blockers: [{ code: "SERVICE_DETAILS_MISSING", paths: [path] }] } });
}

async function receiptOf(order: { receiptId: string; receiptToken: string }) {
  const receipt = await app.call("GET", `/receipts/${order.receiptId}`, { headers: { "X-Receipt-Token": order.receiptToken } });
  expect(receipt.status, receipt.text).toBe(200);
  return receipt.body as { fulfilment: { method: string; tableNumber: string | null; roomNumber: string | null } };
}

describe("table-side and room-service orders", () => {
  it("a table-side cart is refused at checkout without its table, pays once it is set, and the receipt names the table", async () => {
    app.clock.now = new Date();
    const cart = await cartOf("table_side", HARBOR.locationId, chowderCup);
    expectMissing(await paymentSession(app, cart), "tableServiceInfo.tableNumber");
    expectMissing(await pay(app, cart, "pm_card_visa"), "tableServiceInfo.tableNumber");
    expect(await orderCount(app, cart.cartId)).toBe(0);

    const set = await mutate(app, cart, "PUT", "/service-details", { tableServiceInfo: { tableNumber: " 12 " } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ tableServiceInfo: { tableNumber: "12" }, roomServiceInfo: null, revision: 2 });
    const order = await completeOrder(app, cart);
    expect((await receiptOf(order)).fulfilment).toMatchObject({ method: "table_side", tableNumber: "12", roomNumber: null });
  });

  it("a room-service cart needs the room and the guest's name; details of another method are refused and change nothing", async () => {
    // Dune Grill (Asia/Dubai, 10:00-23:00): 14:00 there.
    app.clock.now = new Date("2026-12-02T14:00:00+04:00");
    const cart = await cartOf("room_service", DUNE.locationId, hummus);
    const wrongKind = await mutate(app, cart, "PUT", "/service-details", { tableServiceInfo: { tableNumber: "4" } });
    expect(wrongKind.status, wrongKind.text).toBe(409);
    expect(wrongKind.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { fulfilmentMethod: "room_service" } });
    for (const body of [{}, { roomServiceInfo: { roomNumber: "701" } }, { roomServiceInfo: { roomNumber: " ", lastName: "Haddad" } }, { roomServiceInfo: { roomNumber: "701", lastName: "Haddad" }, tableServiceInfo: { tableNumber: "4" } }]) {
      const refused = await mutate(app, cart, "PUT", "/service-details", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expectMissing(await paymentSession(app, cart), "roomServiceInfo");
    const set = await mutate(app, cart, "PUT", "/service-details", { roomServiceInfo: { roomNumber: "701", lastName: "Haddad" } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ roomServiceInfo: { roomNumber: "701", lastName: "Haddad" }, revision: 2 });
    const order = await completeOrder(app, cart);
    expect((await receiptOf(order)).fulfilment).toMatchObject({ method: "room_service", roomNumber: "701" });
    app.clock.now = new Date();
  });

  it("a takeout cart takes no service details (409) and pays without them", async () => {
    const cart = await cartOf("takeout", HARBOR.locationId, chowderCup);
    const refused = await mutate(app, cart, "PUT", "/service-details", { tableServiceInfo: { tableNumber: "3" } });
    expect(refused.status, refused.text).toBe(409);
    expect((await paymentSession(app, cart)).status).toBe(200);
  });
});
