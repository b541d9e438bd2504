import { duneHummus } from "../checkout-helpers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts } from "../../db/schema";
import { createTestApp, DUNE, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { CART_MAX_LINES: "3", CART_MAX_LINE_QUANTITY: "10", CART_IDLE_TTL_MINUTES: "30" } });
});
afterAll(async () => {
  await app.close();
});

type Cart = Record<string, unknown> & { items: { id: string; price: string; total: string; discount: string; quantity: number }[]; revision: number };

const smash = (extra: object = {}) => ({
  productId: "prd_hk_smash_burger",
  quantity: 2,
  selections: [
    { modifierGroupId: "mg_hk_smash_burger_side", optionId: "opt_hk_smash_burger_sweet_potato_fries" },
    { modifierGroupId: "mg_hk_smash_burger_extra_toppings", optionId: "opt_hk_smash_burger_bacon", quantity: 2 },
  ],
  itemUnavailableAction: "remove_item",
  ...extra,
});
const chowderBowl = { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" };

describe("ordering session", () => {
  it("creates an OPEN guest cart with revision 0, an ETag and a one-time high-entropy token", async () => {
    const response = await app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, {
      headers: { "Idempotency-Key": idemKey() },
      body: { fulfillmentMethod: "takeout", marketplaceId: "instagram" },
    });
    expect(response.status).toBe(201);
    const body = response.body as { cart: Cart; cartAccessToken: string };
    expect(body.cart).toMatchObject({ status: "OPEN", revision: 0, currency: "usd", fulfilmentMethod: "takeout", items: [], quoteFingerprint: null, catalogRevalidation: null });
    expect(response.headers.get("etag")).toBe('"cart-0"');
    expect(body.cartAccessToken).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    // The token is stored only as a hash.
    const [rows] = await app.deps.database.db.select().from(carts).where(eq(carts.id, String(body.cart.id)));
    expect(rows?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(body.cartAccessToken);
  });

  it("refuses a fulfilment method the location does not offer", async () => {
    const response = await app.call("POST", `/locations/${DUNE.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "delivery" } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/fulfillmentMethod/);
  });

  it("404s an unknown location", async () => {
    const response = await app.call("POST", "/locations/loc_nowhere/ordering-sessions", { headers: { "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } });
    expect(response.status).toBe(404);
  });
});

describe("pricing through the API", () => {
  it("prices lines, modifiers, discount, gratuity, service fee and tax exactly (half-up, order level)", async () => {
    const cart = await startCart(app);
    expect((await mutate(app, cart, "POST", "/items", smash())).status).toBe(200);
    expect((await mutate(app, cart, "POST", "/items", chowderBowl)).status).toBe(200);
    const discount = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { cartId: cart.cartId, code: "welcome10" },
    });
    expect(discount.status, discount.text).toBe(200);
    cart.etag = discount.headers.get("etag") ?? "";
    const tipped = await mutate(app, cart, "PUT", "/gratuity", { rate: "0.18" });
    expect(tipped.status, tipped.text).toBe(200);
    const body = tipped.body as Cart;
    // 2 x (14.50 + 1.50 + 2 x 2.50) = 42.00, + chowder bowl 8.95 + 4.00 = 54.95
    expect(body).toMatchObject({
      subTotalWithoutDiscount: "54.95",
      discountTotal: "5.50", // 10% of 54.95 = 5.495 -> 5.50
      subTotal: "49.45",
      netSalesTotal: "49.45",
      serviceFeeTotal: "1.48", // 3% of 49.45 = 1.4835
      taxTotal: "3.09", // 6.25% of 49.45 = 3.090625
      waiterTipTotal: "9.89", // 18% of 54.95 = 9.891
      fulfillmentMethodFeeTotal: "0.00",
      taxAndFeeTotal: "4.57",
      orderTotal: "62.43",
      orderTotalWithServiceFee: "63.91",
      orderTotalWithServiceFeeAmount: 6391,
      enterpriseFeeTotal: "0.59", // 1% of 49.45 = 0.4945 -> 0.49, + 0.10
      applicationFeeTotal: "0.59",
      paymentProcessingFeeTotal: "2.15", // 2.9% of 63.91 = 1.85339 -> 1.85, + 0.30
      orderTotalFormatted: "$62.43",
      discountCode: "WELCOME10",
      totalQuantity: 3,
    });
    expect(body.fees).toMatchObject({ taxRate: "0.0625", serviceFeeRate: "0.03", tipRate: "0.18", paymentProcessingFeeFix: "0.30" });
    expect(body.items.map((item) => [item.price, item.total, item.discount, item.quantity])).toEqual([
      ["21.00", "42.00", "4.20", 2],
      ["12.95", "12.95", "1.30", 1],
    ]);
    expect(body.quoteFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(String(body.quoteExpiresAt))).toBeGreaterThan(Date.now());
  });

  it("formats AED amounts and applies room-service fees at Dune Grill", async () => {
    const cart = await startCart(app, DUNE.locationId, "room_service");
    const added = await mutate(app, cart, "POST", "/items", duneHummus);
    expect(added.status, added.text).toBe(200);
    const body = added.body as Cart;
    expect(body.currency).toBe("aed");
    expect(body.fulfillmentMethodFeeTotal).toBe("10.00");
    expect(String(body.orderTotalFormatted)).toMatch(/AED/);
  });

  it("keeps the quote fingerprint when nothing priced changes and moves it when something does", async () => {
    const cart = await startCart(app);
    const first = (await mutate(app, cart, "POST", "/items", chowderBowl)).body as Cart;
    const sameTime = (await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "ASAP" })).body as Cart;
    expect(sameTime.quoteFingerprint).toBe(first.quoteFingerprint);
    const more = (await mutate(app, cart, "PATCH", `/cart-item/${first.items[0]?.id}/quantity`, { quantity: 2 })).body as Cart;
    expect(more.quoteFingerprint).not.toBe(first.quoteFingerprint);
  });
});

describe("items", () => {
  it("merges an identical configuration into one line and keeps different ones apart", async () => {
    const cart = await startCart(app);
    await mutate(app, cart, "POST", "/items", smash({ quantity: 1 }));
    const merged = (await mutate(app, cart, "POST", "/items", smash({ quantity: 1 }))).body as Cart;
    expect(merged.items).toHaveLength(1);
    expect(merged.items[0]?.quantity).toBe(2);
    const apart = (await mutate(app, cart, "POST", "/items", smash({ quantity: 1, specialInstructions: "no pickles" }))).body as Cart;
    expect(apart.items).toHaveLength(2);
  });

  it.each([
    ["a sold-out product", { productId: "prd_hk_oysters", quantity: 1, selections: [] }, "productId"],
    ["another location's product", { productId: "prd_dg_hummus", quantity: 1, selections: [] }, "productId"],
    ["a missing required choice", { productId: "prd_hk_clam_chowder", quantity: 1, selections: [] }, "selections"],
    ["an unavailable option", { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bread_bowl" }] }, "selections.0.optionId"],
    ["another product's group", { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_smash_burger_side", optionId: "opt_hk_smash_burger_fries" }] }, "selections.0.modifierGroupId"],
    ["too many of one option", { ...smash(), selections: [{ modifierGroupId: "mg_hk_smash_burger_side", optionId: "opt_hk_smash_burger_fries", quantity: 2 }] }, "selections.0.quantity"],
    ["a zero quantity", { ...chowderBowl, quantity: 0 }, "quantity"],
    ["a fractional quantity", { ...chowderBowl, quantity: 1.5 }, "quantity"],
    ["a string quantity", { ...chowderBowl, quantity: "2" }, "quantity"],
    ["a null quantity", { ...chowderBowl, quantity: null }, "quantity"],
  ])("rejects %s with 400 naming the field, and changes nothing", async (_label, body, field) => {
    const cart = await startCart(app);
    const response = await mutate(app, cart, "POST", "/items", { itemUnavailableAction: "remove_item", ...body });
    expect(response.status, response.text).toBe(400);
    const details = (response.body as { details: { fields: { path: string }[] } }).details;
    expect(details.fields.map((issue) => issue.path)).toContain(field);
    const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect((after.body as Cart).revision).toBe(0);
  });

  it("enforces the per-line quantity and lines-per-cart limits", async () => {
    const cart = await startCart(app);
    expect((await mutate(app, cart, "POST", "/items", { ...chowderBowl, quantity: 11 })).status).toBe(400);
    for (const productId of ["prd_hk_crispy_calamari", "prd_hk_fish_and_chips", "prd_hk_boston_cream_pie"]) {
      const response = await mutate(app, cart, "POST", "/items", { productId, quantity: 1, selections: [], itemUnavailableAction: "remove_item" });
      expect(response.status, response.text).toBe(200);
    }
    const full = await mutate(app, cart, "POST", "/items", chowderBowl);
    expect(full.status).toBe(400);
    expect(full.text).toMatch(/at most 3 lines/);
  });

  it("sets a line's quantity, removes it at 0, and 404s an unknown line", async () => {
    const cart = await startCart(app);
    const added = (await mutate(app, cart, "POST", "/items", chowderBowl)).body as Cart;
    const itemId = added.items[0]?.id ?? "";
    const three = (await mutate(app, cart, "PATCH", `/cart-item/${itemId}/quantity`, { quantity: 3 })).body as Cart;
    expect(three.items[0]?.quantity).toBe(3);
    expect(three.subTotal).toBe("38.85");
    expect((await mutate(app, cart, "PATCH", "/cart-item/li_missing/quantity", { quantity: 1 })).status).toBe(404);
    const removed = (await mutate(app, cart, "PATCH", `/cart-item/${itemId}/quantity`, { quantity: 0 })).body as Cart;
    expect(removed.items).toEqual([]);
    expect(removed.orderTotal).toBe("0.00");
    expect(removed.quoteFingerprint).toBeNull();
  });
});

describe("order time", () => {
  it("accepts a bookable LATER slot from /time-intervals and refuses others", async () => {
    // The day before (bookable times reach 30 days ahead of the location's today).
    const saved = app.clock.now;
    app.clock.now = new Date("2099-01-04T12:00:00Z");
    try {
      const cart = await startCart(app, DUNE.locationId);
      const intervals = await app.call("GET", `/locations/${DUNE.locationId}/time-intervals?date=2099-01-05`);
      const takeout = (intervals.body as { methods: { fulfillmentMethod: string; times: { time: string }[] }[] }).methods.find((method) => method.fulfillmentMethod === "takeout");
      const slot = takeout?.times[3]?.time ?? "";
      expect(takeout?.times[0]?.time).toBe("10:00");
      const ok = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "LATER", orderDate: "2099-01-05", orderTime: slot });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toMatchObject({ pickupType: "LATER", orderDate: "2099-01-05", orderTime: slot });
      for (const body of [
        { pickupType: "LATER", orderDate: "2099-01-05", orderTime: "03:00" },
        { pickupType: "LATER", orderDate: "2020-01-01", orderTime: "12:00" },
        { pickupType: "LATER", orderDate: "2099-02-30", orderTime: "12:00" },
        { pickupType: "LATER", orderDate: "2099-01-05" },
        { pickupType: "LATER", orderDate: "x".repeat(65), orderTime: "12:00" },
        { pickupType: "ASAP", orderTime: "12:00" },
        { pickupType: "SOON" },
      ]) {
        const response = await mutate(app, cart, "PUT", "/update-order-time", body);
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
    } finally {
      app.clock.now = saved;
    }
  });

  it("refuses ASAP while the location is closed", async () => {
    const saved = app.clock.now;
    app.clock.now = new Date("2099-01-05T02:00:00Z"); // 06:00 in Dubai, before opening
    try {
      const cart = await startCart(app, DUNE.locationId);
      const response = await mutate(app, cart, "PUT", "/update-order-time", { pickupType: "ASAP" });
      expect(response.status).toBe(400);
      expect(response.text).toMatch(/closed/);
    } finally {
      app.clock.now = saved;
    }
  });
});

describe("gratuity", () => {
  it("takes exactly one of rate or amount within policy", async () => {
    const cart = await startCart(app);
    await mutate(app, cart, "POST", "/items", chowderBowl);
    const amount = await mutate(app, cart, "PUT", "/gratuity", { amount: "3.50" });
    expect(amount.body).toMatchObject({ waiterTipTotal: "3.50" });
    for (const body of [{}, { rate: "0.1", amount: "1" }, { rate: "0.9" }, { rate: "-0.1" }, { amount: "1.005" }, { amount: "abc" }, { rate: 0.1 }]) {
      expect((await mutate(app, cart, "PUT", "/gratuity", body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("discounts", () => {
  it("rejects unknown, inactive and below-minimum codes; DELETE removes an applied code", async () => {
    const cart = await startCart(app);
    await mutate(app, cart, "POST", "/items", { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" });
    const apply = (code: string) =>
      app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
        headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
        body: { cartId: cart.cartId, code },
      });
    expect((await apply("NOPE")).status).toBe(400);
    expect((await apply("EXPIRED20")).status).toBe(400);
    expect((await apply("FIVEOFF")).status).toBe(400); // minimum subtotal 25.00; calamari is 14.50
    const applied = await apply("WELCOME10");
    expect(applied.status).toBe(200);
    cart.etag = applied.headers.get("etag") ?? "";
    const removed = await app.call("DELETE", `/locations/${cart.locationId}/discounts/apply-discount?cartId=${cart.cartId}`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ discountTotal: "0.00" });
    expect((removed.body as Cart).discountCode).toBeUndefined();
  });
});

describe("expiry", () => {
  it("expires an idle cart on its own: reads show EXPIRED, writes get CART_IMMUTABLE", async () => {
    const cart = await startCart(app);
    const saved = app.clock.now;
    app.clock.now = new Date(saved.getTime() + 31 * 60_000);
    try {
      const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
      expect((read.body as Cart).status).toBe("EXPIRED");
      const write = await mutate(app, cart, "POST", "/items", chowderBowl);
      expect(write.status).toBe(409);
      expect((write.body as { code: string }).code).toBe("CART_IMMUTABLE");
    } finally {
      app.clock.now = saved;
    }
  });

  it("DELETE expires the cart and returns it in its expired state", async () => {
    const cart = await startCart(app);
    const response = await mutate(app, cart, "DELETE", "");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "EXPIRED", revision: 1 });
  });
});
