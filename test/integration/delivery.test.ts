import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locations } from "../../db/schema";
import { findCart } from "../../server/services/cart-access";
import { checkoutBlockers } from "../../server/domain/checkout-readiness";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import type { Courier, CourierQuoteRequest } from "../../server/integrations/courier/types";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp } from "../harness";
import { completeOrder, refresh } from "../checkout-helpers";
import { deliveryAddressNearHarbor } from "../routes";

/** Delivery through the simulated courier: address, quote, tip, and quotes going stale. */
type DeliveryQuoteView = { provider: string; externalDeliveryId: string; quoteFingerprint: string; feeMinor: number; taxMinor: number; courierTipMinor: number; currency: string; quotedAt: string; expiresAt: string; pickupEstimatedAt?: string; dropoffEstimatedAt?: string };
type Cart = {
  revision: number;
  subTotal: string;
  taxTotal: string;
  fulfillmentMethodFeeTotal: string;
  courierTipTotal?: string;
  orderTotal: string;
  quoteFingerprint: string | null;
  quoteExpiresAt: string | null;
  deliveryInfo: { addressString: string; addressData: Record<string, unknown> } | null;
  deliveryQuote: DeliveryQuoteView | null;
  catalogRevalidation: CatalogRevalidation | null;
  items: { id: string }[];
};

/** Counts quote requests and can hold them, to see when (and whether) the courier is asked. */
function observedCourier(inner: Courier) {
  const requests: CourierQuoteRequest[] = [];
  let gate: Promise<void> | null = null;
  const courier: Courier = {
    name: inner.name,
    async quote(request) {
      requests.push(request);
      if (gate) await gate;
      return inner.quote(request);
    },
    acceptQuote: (request) => inner.acceptQuote(request),
  };
  return {
    courier,
    requests,
    hold() {
      let release = () => undefined as void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

let app: TestApp;
let observed: ReturnType<typeof observedCourier>;
const start = new Date("2030-01-07T15:00:00.000Z");

beforeAll(async () => {
  app = await createTestApp({
    overrides: (deps) => {
      observed = observedCourier(deps.courier);
      return { courier: observed.courier };
    },
  });
});
afterAll(async () => {
  await app.close();
});

const calamari = { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" };
const quincy = { ...deliveryAddressNearHarbor, street: "1250 Hancock St", city: "Quincy", zipCode: "02169", lat: 42.2529, lng: -71.0023 };

async function deliveryCart(): Promise<CartHandle> {
  app.clock.now = start;
  const cart = await startCart(app, HARBOR.locationId, "delivery");
  expect((await mutate(app, cart, "POST", "/items", calamari)).status).toBe(200);
  return cart;
}

async function setDelivery(cart: CartHandle, address: Record<string, unknown> = deliveryAddressNearHarbor) {
  const response = await mutate(app, cart, "PUT", "/set-delivery", address);
  return { response, body: response.body as Cart };
}

async function read(cart: CartHandle) {
  const response = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
  return { response, body: response.body as Cart };
}

async function blockers(cart: CartHandle) {
  const db = app.deps.database.db;
  const row = await findCart(db, cart.cartId);
  const [location] = await db.select().from(locations).where(eq(locations.id, cart.locationId));
  if (!row || !location) throw new Error("cart or location missing");
  return checkoutBlockers(row, location, app.clock.now).map((blocker) => blocker.code);
}

describe("PUT set-delivery", () => {
  it("stores the address and the courier's quote, and the fee flows into the totals", async () => {
    const cart = await deliveryCart();
    expect(await blockers(cart)).toEqual(["DELIVERY_ADDRESS_MISSING"]);
    const { response, body } = await setDelivery(cart, { ...deliveryAddressNearHarbor, streetOptional: "Floor 3" });
    expect(response.status, response.text).toBe(200);
    expect(body.deliveryInfo).toEqual({
      addressString: "1 City Hall Square, Floor 3, Boston, MA 02201, United States",
      addressData: { ...deliveryAddressNearHarbor, streetOptional: "Floor 3" },
    });
    const quote = body.deliveryQuote;
    // 0.57 km: the simulated courier charges 2.99 + 0.60 for one started kilometre.
    expect(quote).toMatchObject({ provider: "PARTNER_DRIVE", feeMinor: 359, taxMinor: 0, courierTipMinor: 0, currency: "usd", quotedAt: start.toISOString(), status: "quoted" });
    expect(quote?.quoteFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(quote?.externalDeliveryId).toMatch(/^dlv_/);
    expect(quote?.expiresAt).toBe(new Date(start.getTime() + 5 * 60_000).toISOString());
    // ASAP: ready after the location's 45-minute delivery lead time.
    expect(quote?.pickupEstimatedAt).toBe(new Date(start.getTime() + 45 * 60_000).toISOString());
    expect(Date.parse(quote?.dropoffEstimatedAt ?? "")).toBeGreaterThan(Date.parse(quote?.pickupEstimatedAt ?? ""));
    // Subtotal 29.00; the location's 1.99 delivery fee plus the courier's 3.59.
    expect(body).toMatchObject({ subTotal: "29.00", fulfillmentMethodFeeTotal: "5.58", taxTotal: "1.81", courierTipTotal: "0.00", orderTotal: "36.39" });
    expect(body.quoteExpiresAt).toBe(quote?.expiresAt);
    expect(body.catalogRevalidation).toBeNull();
    expect(await blockers(cart)).toEqual([]);
    expect(observed.requests.at(-1)).toMatchObject({ orderValueMinor: 2900, currency: "usd", dropoff: { lat: 42.3603, lng: -71.0578 }, pickup: { lat: 42.3597, lng: -71.0509 } });
  });

  it("asks the courier once: a retry replays without a second quote", async () => {
    const cart = await deliveryCart();
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() };
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}/set-delivery`;
    const before = observed.requests.length;
    const first = await app.call("PUT", path, { headers, body: deliveryAddressNearHarbor });
    const retry = await app.call("PUT", path, { headers, body: deliveryAddressNearHarbor });
    expect(first.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(observed.requests.length - before).toBe(1);
  });

  it("holds no transaction while the courier thinks: the cart stays readable", async () => {
    const cart = await deliveryCart();
    const asked = observed.requests.length;
    const release = observed.hold();
    const pending = setDelivery(cart);
    try {
      await expect.poll(() => observed.requests.length).toBe(asked + 1);
      const { response } = await read(cart);
      expect(response.status).toBe(200);
    } finally {
      release();
    }
    expect((await pending).response.status).toBe(200);
  });

  it("refuses an address beyond the delivery radius with 400 and leaves the cart unchanged", async () => {
    const cart = await deliveryCart();
    const { response } = await setDelivery(cart, quincy);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "OUT_OF_DELIVERY_RADIUS", maxRadiusKm: 8 } });
    const { response: after, body } = await read(cart);
    expect(after.headers.get("etag")).toBe(cart.etag);
    expect(body.deliveryInfo).toBeNull();
    expect(body.deliveryQuote).toBeNull();
  });

  it("validates the address: ranges, countries, blank strings, required fields, the location's country", async () => {
    const cart = await deliveryCart();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...deliveryAddressNearHarbor, lat: 91 }, /lat/],
      [{ ...deliveryAddressNearHarbor, lng: -181 }, /lng/],
      [{ ...deliveryAddressNearHarbor, lat: "42.36" }, /lat/],
      [{ ...deliveryAddressNearHarbor, country: "Canada" }, /country/],
      [{ ...deliveryAddressNearHarbor, street: "   " }, /street/],
      [{ ...deliveryAddressNearHarbor, zipCode: "" }, /zipCode/],
      [{ street: "1 City Hall Square", city: "Boston", state: "MA", zipCode: "02201", country: "United States", lat: 42.3603 }, /lng/],
      [{ ...deliveryAddressNearHarbor, country: "United Kingdom" }, /country/],
    ];
    for (const [body, field] of cases) {
      const { response } = await setDelivery(cart, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body)).toMatch(field);
    }
    expect((await read(cart)).body.deliveryInfo).toBeNull();
  });

  it("answers 409 RESOURCE_CONFLICT for a cart that is not for delivery", async () => {
    app.clock.now = start;
    const cart = await startCart(app);
    const { response } = await setDelivery(cart);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { fulfilmentMethod: "takeout" } });
    const tip = await mutate(app, cart, "PUT", "/courier-tip", { amount: "2.00" });
    expect(tip.status).toBe(409);
  });
});

describe("the receipt of a delivery", () => {
  it("says when it should arrive: the kitchen's lead time from placement plus the courier's quoted travel time", async () => {
    const cart = await deliveryCart();
    const { body } = await setDelivery(cart);
    const quote = body.deliveryQuote;
    if (!quote?.pickupEstimatedAt || !quote.dropoffEstimatedAt) throw new Error("the simulated courier quoted no times");
    const travelMs = Date.parse(quote.dropoffEstimatedAt) - Date.parse(quote.pickupEstimatedAt);
    // Paid a few minutes after the quote: the ready time counts from placement, not from the quote.
    app.clock.now = new Date(start.getTime() + 3 * 60_000);
    const priced = { ...cart, quoteFingerprint: "", total: 0 };
    await refresh(app, priced);
    const order = await completeOrder(app, priced);
    const receipt = await app.call("GET", `/receipts/${order.receiptId}`, { headers: { "X-Receipt-Token": order.receiptToken } });
    expect(receipt.status, receipt.text).toBe(200);
    const { placedAt, readyAt } = receipt.body as { placedAt: string; readyAt: string };
    expect(Date.parse(readyAt)).toBe(Date.parse(placedAt) + 45 * 60_000 + travelMs);
    expect(Date.parse(readyAt)).toBeGreaterThan(Date.parse(quote.dropoffEstimatedAt));
  });
});

describe("PUT courier-tip", () => {
  it("sets courierTipTotal and the quote's tip, keeps the quote payable, and moves the fingerprint", async () => {
    const cart = await deliveryCart();
    const { body: quoted } = await setDelivery(cart);
    const response = await mutate(app, cart, "PUT", "/courier-tip", { amount: "3.5" });
    expect(response.status, response.text).toBe(200);
    const body = response.body as Cart;
    expect(body.courierTipTotal).toBe("3.50");
    expect(body.orderTotal).toBe("39.89");
    expect(body.deliveryQuote).toMatchObject({ courierTipMinor: 350, externalDeliveryId: quoted.deliveryQuote?.externalDeliveryId, feeMinor: 359 });
    expect(body.deliveryQuote?.quoteFingerprint).not.toBe(quoted.deliveryQuote?.quoteFingerprint);
    expect(body.quoteFingerprint).not.toBe(quoted.quoteFingerprint);
    expect(body.catalogRevalidation).toBeNull();
    expect(await blockers(cart)).toEqual([]);
    const same = await mutate(app, cart, "PUT", "/courier-tip", { amount: "3.50" });
    expect((same.body as Cart).quoteFingerprint).toBe(body.quoteFingerprint);
  });

  it("can be set before the address, and the quote takes it", async () => {
    const cart = await deliveryCart();
    expect((await mutate(app, cart, "PUT", "/courier-tip", { amount: "2" })).status).toBe(200);
    const { body } = await setDelivery(cart);
    expect(body.deliveryQuote?.courierTipMinor).toBe(200);
    expect(observed.requests.at(-1)?.tipMinor).toBe(200);
  });

  it("refuses negative, over-precise, malformed and too large amounts", async () => {
    const cart = await deliveryCart();
    for (const amount of ["-1", "1.005", "1.0050", "abc", "", "100.01", "100.0100", 3]) {
      const response = await mutate(app, cart, "PUT", "/courier-tip", { amount });
      expect(response.status, String(amount)).toBe(400);
      expect(JSON.stringify(response.body)).toMatch(/amount/);
    }
    expect((await mutate(app, cart, "PUT", "/courier-tip", { amount: "100.00" })).status).toBe(200);
  });

  it("takes any number of trailing fraction zeros, as the spec's format allows: \"1.500\" is 1.50", async () => {
    const cart = await deliveryCart();
    const response = await mutate(app, cart, "PUT", "/courier-tip", { amount: "1.500" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ courierTipTotal: "1.50" });
    expect((await mutate(app, cart, "PUT", "/courier-tip", { amount: "100.000000" })).status).toBe(200);
  });
});

describe("re-quoting", () => {
  it("flags the quote stale when the subtotal changes, and validate-and-update renews it", async () => {
    const cart = await deliveryCart();
    const { body: quoted } = await setDelivery(cart);
    const added = await mutate(app, cart, "POST", "/items", { ...calamari, quantity: 1 });
    const body = added.body as Cart;
    expect(body.catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["QUOTE_EXPIRED"] });
    expect(body.catalogRevalidation?.changeSet.changes).toEqual([
      expect.objectContaining({ reason: "QUOTE_EXPIRED", path: "deliveryQuote", before: quoted.deliveryQuote?.externalDeliveryId, after: null, permittedActions: ["ACCEPT_CHANGES"] }),
    ]);
    expect(await blockers(cart)).toEqual(["DELIVERY_QUOTE_STALE", "CHANGES_NOT_ACKNOWLEDGED"]);

    const before = observed.requests.length;
    const renewed = await mutate(app, cart, "PUT", "/validate-and-update", {});
    expect(renewed.status, renewed.text).toBe(200);
    expect(observed.requests.length - before).toBe(1);
    expect(observed.requests.at(-1)?.orderValueMinor).toBe(4350);
    const fresh = renewed.body as Cart;
    expect(fresh.deliveryQuote?.externalDeliveryId).not.toBe(quoted.deliveryQuote?.externalDeliveryId);
    expect(fresh.deliveryQuote?.feeMinor).toBe(359);
    expect(fresh.catalogRevalidation?.required).toBe(false);
    expect(fresh.catalogRevalidation?.changeSet.changes).toEqual([expect.objectContaining({ path: "deliveryQuote.externalDeliveryId", permittedActions: [] })]);
    expect(await blockers(cart)).toEqual([]);
  });

  it("flags the quote stale when the order time changes", async () => {
    const cart = await deliveryCart();
    await setDelivery(cart);
    const later = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2030-01-07", orderTime: "18:00" });
    expect(later.status, later.text).toBe(200);
    expect((later.body as Cart).catalogRevalidation?.reasonCodes).toEqual(["QUOTE_EXPIRED"]);
    const renewed = await mutate(app, cart, "PUT", "/validate-and-update", {});
    expect(renewed.status).toBe(200);
    // Scheduled: the courier picks up at the chosen time (18:00 in Boston).
    expect(observed.requests.at(-1)?.pickupTime.toISOString()).toBe("2030-01-07T23:00:00.000Z");
    expect(await blockers(cart)).toEqual([]);
  });

  it("flags an expired courier quote on read and renews it; a refused renewal blocks", async () => {
    const cart = await deliveryCart();
    const { body: quoted } = await setDelivery(cart);
    app.clock.now = new Date(start.getTime() + 6 * 60_000);
    const { body: flagged } = await read(cart);
    expect(flagged.catalogRevalidation?.changeSet.changes).toEqual([expect.objectContaining({ reason: "QUOTE_EXPIRED", path: "deliveryQuote" })]);
    expect(await blockers(cart)).toEqual(["QUOTE_EXPIRED", "DELIVERY_QUOTE_EXPIRED"]);
    const renewed = await mutate(app, cart, "PUT", "/validate-and-update", {});
    const body = renewed.body as Cart;
    expect(body.deliveryQuote?.expiresAt).toBe(new Date(app.clock.now.getTime() + 5 * 60_000).toISOString());
    expect(body.quoteExpiresAt).toBe(body.deliveryQuote?.expiresAt);
    expect(body.quoteFingerprint).toBe(quoted.quoteFingerprint);
    expect(await blockers(cart)).toEqual([]);

    // The courier now refuses the address (the radius shrank): the renewal reports it as blocking.
    app.clock.now = new Date(start.getTime() + 12 * 60_000);
    const narrow = await createTestApp({ database: app.deps.database, env: { COURIER_MAX_RADIUS_KM: "0.1" } });
    narrow.clock.now = app.clock.now;
    const refused = await narrow.call("PUT", `/locations/${cart.locationId}/carts/${cart.cartId}/validate-and-update`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": renewed.headers.get("etag") ?? "", "Idempotency-Key": idemKey() },
      body: {},
    });
    expect(refused.status, refused.text).toBe(200);
    const refusedBody = refused.body as Cart;
    expect(refusedBody.catalogRevalidation?.changeSet.changes).toEqual([
      expect.objectContaining({ reason: "FULFILLMENT_UNAVAILABLE", path: "deliveryInfo.addressString", permittedActions: ["CHANGE_FULFILLMENT", "START_NEW_CART"] }),
    ]);
    expect(refusedBody.catalogRevalidation?.changeSet.blocking).toBe(true);
    expect(refusedBody.deliveryQuote?.externalDeliveryId).toBe(body.deliveryQuote?.externalDeliveryId);
    await narrow.close();
  });
});
