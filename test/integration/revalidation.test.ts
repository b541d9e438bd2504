import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locations } from "../../db/schema";
import { findCart } from "../../server/services/cart-access";
import { publish, type Publication } from "../../server/catalog-admin/publish";
import { checkoutBlockers } from "../../server/domain/checkout-readiness";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import { createTestApp, HARBOR, mutate, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * A menu that changes under a cart: detection on read and on mutation, the change set of
 * validate-and-update for every reason code our data model can produce, acceptance, and the
 * predicate checkout uses to refuse payment.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  // Monday 2030-01-07, 10:00 in Boston: breakfast is on, the 24-hour kitchen is open.
  app.clock.now = new Date("2030-01-07T15:00:00.000Z");
});
afterAll(async () => {
  await app.close();
});

type Cart = {
  revision: number;
  subTotal: string;
  taxTotal: string;
  quoteFingerprint: string | null;
  quoteExpiresAt: string | null;
  items: { id: string; quantity: number; price: string; product: { price: string } }[];
  authorityContext: { cartRevision: number; catalogPublicationRevision: number; commercePolicyRevision: number };
  catalogRevalidation: CatalogRevalidation | null;
};

const publishAtHarbor = (...changes: Publication[]) => publish(app.deps.database.db, HARBOR.locationId, changes);

async function read(cart: CartHandle) {
  const response = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
  expect(response.status, response.text).toBe(200);
  return { body: response.body as Cart, etag: response.headers.get("etag") };
}

async function cartWith(item: Record<string, unknown>): Promise<{ cart: CartHandle; body: Cart }> {
  const cart = await startCart(app);
  const added = await mutate(app, cart, "POST", "/items", { quantity: 1, selections: [], itemUnavailableAction: "remove_item", ...item });
  expect(added.status, added.text).toBe(200);
  return { cart, body: added.body as Cart };
}

async function validate(cart: CartHandle, body: Record<string, unknown> = {}) {
  const response = await mutate(app, cart, "PUT", "/validate-and-update", body);
  return { response, body: response.body as Cart };
}

async function blockers(cart: CartHandle) {
  const db = app.deps.database.db;
  const row = await findCart(db, cart.cartId);
  const [location] = await db.select().from(locations).where(eq(locations.id, cart.locationId));
  if (!row || !location) throw new Error("cart or location missing");
  return checkoutBlockers(row, location, app.clock.now).map((blocker) => blocker.code);
}

const changesOf = (body: Cart) => body.catalogRevalidation?.changeSet.changes ?? [];

describe("a menu change between add-item and checkout", () => {
  it("is detected on read, reported by validate-and-update, accepted, and moves the fingerprint", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_crispy_calamari", quantity: 2 });
    expect(added.catalogRevalidation).toBeNull();
    expect(await blockers(cart)).toEqual([]);
    const before = await read(cart);
    const { catalogRevision } = await publishAtHarbor({ kind: "productPrice", productId: "prd_hk_crispy_calamari", priceMinor: 1550 });

    // GET: detected, not applied (totals, revision and ETag stay), and checkout would refuse.
    const detected = await read(cart);
    expect(detected.etag).toBe(before.etag);
    expect(detected.body.subTotal).toBe("29.00");
    expect(detected.body.authorityContext.catalogPublicationRevision).toBe(catalogRevision - 1);
    expect(detected.body.catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"], acknowledgedAt: null });
    expect(changesOf(detected.body)).toEqual([
      {
        reason: "PRICE_CHANGED",
        cartItemId: added.items[0]?.id,
        canonicalEntityId: "prd_hk_crispy_calamari",
        path: "items.0.product.price",
        before: "14.50",
        after: "15.50",
        permittedActions: ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"],
      },
    ]);
    expect(await blockers(cart)).toEqual(["CATALOG_CHANGED"]);

    // validate-and-update {}: applies the new price, records the change set, asks for acceptance.
    const checked = await validate(cart);
    expect(checked.response.status, checked.response.text).toBe(200);
    expect(checked.body.subTotal).toBe("31.00");
    expect(checked.body.items[0]?.product.price).toBe("15.50");
    expect(checked.body.quoteFingerprint).not.toBe(added.quoteFingerprint);
    expect(checked.body.authorityContext).toMatchObject({ catalogPublicationRevision: catalogRevision, cartRevision: checked.body.revision });
    expect(checked.body.catalogRevalidation).toMatchObject({
      required: true,
      reasonCodes: ["PRICE_CHANGED"],
      acknowledgedAt: null,
      changeSet: {
        version: 1,
        previous: { cartRevision: added.revision, catalogPublicationRevision: catalogRevision - 1 },
        current: { cartRevision: checked.body.revision, catalogPublicationRevision: catalogRevision },
        blocking: false,
        reconfirmationRequired: true,
        invalidatedEvidence: { quote: true, benefits: false, paymentAuthorization: true },
      },
    });
    expect(await blockers(cart)).toEqual(["CHANGES_NOT_ACKNOWLEDGED"]);

    // Accepting a quote the customer did not see is refused, and changes nothing.
    const stale = await validate(cart, { accept: true, quoteFingerprint: added.quoteFingerprint });
    expect(stale.response.status).toBe(409);
    expect(stale.response.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { currentQuoteFingerprint: checked.body.quoteFingerprint } });
    expect((await read(cart)).body.revision).toBe(checked.body.revision);

    // `accept` is a JSON boolean: "false", "true", 1 are 400 (the REST adapter once read "false" as true), and accept nothing.
    for (const accept of ["false", "true", 1]) {
      const coerced = await validate(cart, { accept, quoteFingerprint: checked.body.quoteFingerprint });
      expect(coerced.response.status, `${JSON.stringify(accept)}: ${coerced.response.text}`).toBe(400);
      expect(coerced.response.body).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect(await blockers(cart)).toEqual(["CHANGES_NOT_ACKNOWLEDGED"]);
    expect((await read(cart)).body.revision).toBe(checked.body.revision);

    const accepted = await validate(cart, { accept: true, quoteFingerprint: checked.body.quoteFingerprint });
    expect(accepted.response.status, accepted.response.text).toBe(200);
    expect(accepted.body.quoteFingerprint).toBe(checked.body.quoteFingerprint);
    expect(accepted.body.catalogRevalidation).toMatchObject({ required: false, acknowledgedAt: app.clock.now.toISOString(), reasonCodes: ["PRICE_CHANGED"] });
    expect(await blockers(cart)).toEqual([]);
  });

  it("is detected and applied by any mutation, whose response carries the change set", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_grilled_salmon" });
    await publishAtHarbor({ kind: "productPrice", productId: "prd_hk_grilled_salmon", priceMinor: 2595 });
    const added = await mutate(app, cart, "POST", "/items", { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" });
    expect(added.status, added.text).toBe(200);
    const body = added.body as Cart;
    expect(body.items.map((item) => item.price)).toEqual(["25.95", "15.50"]);
    expect(body.catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"] });
    expect(changesOf(body).map((change) => [change.path, change.before, change.after])).toEqual([["items.0.product.price", "24.95", "25.95"]]);
    // Further edits keep the unaccepted change until it is accepted.
    const edited = await mutate(app, cart, "PATCH", `/cart-item/${body.items[1]?.id}/quantity`, { quantity: 0 });
    expect((edited.body as Cart).catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"] });
    const accepted = await validate(cart, { accept: true, quoteFingerprint: (edited.body as Cart).quoteFingerprint });
    expect(accepted.body.catalogRevalidation?.required).toBe(false);
  });
});

describe("blocking changes", () => {
  it("ITEM_SOLD_OUT blocks until the line is removed; accepting does not unblock it", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_chicken_sandwich" });
    await publishAtHarbor({ kind: "productAvailability", productId: "prd_hk_chicken_sandwich", available: false });
    try {
      const { body } = await validate(cart);
      expect(changesOf(body)).toEqual([expect.objectContaining({ reason: "ITEM_SOLD_OUT", path: "items.0.available", before: true, after: false, permittedActions: ["REMOVE_ITEM"] })]);
      expect(body.catalogRevalidation).toMatchObject({ required: true, changeSet: { blocking: true } });
      expect(await blockers(cart)).toEqual(["BLOCKING_CHANGES"]);
      const accepted = await validate(cart, { accept: true, quoteFingerprint: body.quoteFingerprint });
      expect(accepted.body.catalogRevalidation).toMatchObject({ required: true, changeSet: { blocking: true } });
      const removed = await mutate(app, cart, "PATCH", `/cart-item/${added.items[0]?.id}/quantity`, { quantity: 0 });
      expect(removed.status).toBe(200);
      expect((removed.body as Cart).catalogRevalidation).toMatchObject({ required: false, changeSet: { blocking: false, changes: [] } });
    } finally {
      await publishAtHarbor({ kind: "productAvailability", productId: "prd_hk_chicken_sandwich", available: true });
    }
  });

  it("ITEM_UNAVAILABLE: the product was taken off the menu", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_cider_donuts" });
    await publishAtHarbor({ kind: "productRemoved", productId: "prd_hk_cider_donuts" });
    const { body } = await validate(cart);
    expect(changesOf(body)).toEqual([expect.objectContaining({ reason: "ITEM_UNAVAILABLE", path: "items.0.productId", before: "prd_hk_cider_donuts", after: null, permittedActions: ["REMOVE_ITEM"] })]);
    expect(body.catalogRevalidation?.changeSet.blocking).toBe(true);
  });

  it("MODIFIER_UNAVAILABLE: a chosen option ran out", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_kale_caesar", selections: [{ modifierGroupId: "mg_hk_kale_caesar_add_protein", optionId: "opt_hk_kale_caesar_shrimp" }] });
    const option = { productId: "prd_hk_kale_caesar", groupId: "mg_hk_kale_caesar_add_protein", optionId: "opt_hk_kale_caesar_shrimp" };
    await publishAtHarbor({ kind: "modifierOptionAvailability", ...option, available: false });
    try {
      const { body } = await validate(cart);
      expect(changesOf(body)).toEqual([
        expect.objectContaining({ reason: "MODIFIER_UNAVAILABLE", canonicalEntityId: "opt_hk_kale_caesar_shrimp", path: "items.0.selections.0.optionId", permittedActions: ["RESELECT_MODIFIERS", "REMOVE_ITEM"] }),
      ]);
      expect(await blockers(cart)).toEqual(["BLOCKING_CHANGES"]);
    } finally {
      await publishAtHarbor({ kind: "modifierOptionAvailability", ...option, available: true });
    }
  });

  it("MODIFIER_RULE_CHANGED: a double topping is no longer allowed", async () => {
    const { cart } = await cartWith({
      productId: "prd_hk_harbor_burger",
      selections: [
        { modifierGroupId: "mg_hk_harbor_burger_doneness", optionId: "opt_hk_harbor_burger_medium" },
        { modifierGroupId: "mg_hk_harbor_burger_extra_toppings", optionId: "opt_hk_harbor_burger_bacon", quantity: 2 },
      ],
    });
    await publishAtHarbor({ kind: "modifierGroupRules", productId: "prd_hk_harbor_burger", groupId: "mg_hk_harbor_burger_extra_toppings", rules: { maxPerOption: 1 } });
    const { body } = await validate(cart);
    expect(changesOf(body)).toEqual([expect.objectContaining({ reason: "MODIFIER_RULE_CHANGED", path: "items.0.selections.1.quantity", before: 2, after: 1 })]);
    expect(body.catalogRevalidation?.changeSet.blocking).toBe(true);
  });

  it("SCHEDULE_CLOSED: new opening hours close the kitchen at the order time; detected by an ordinary mutation", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_fish_and_chips" });
    const [location] = await app.deps.database.db.select().from(locations).where(eq(locations.id, HARBOR.locationId));
    await publishAtHarbor({ kind: "openingHours", openingHours: { "2": [{ opens: "09:00", closes: "17:00" }] } });
    try {
      const tipped = await mutate(app, cart, "PUT", "/gratuity", { rate: "0.15" });
      expect(tipped.status, tipped.text).toBe(200);
      expect(changesOf(tipped.body as Cart)).toEqual([
        { reason: "SCHEDULE_CLOSED", cartItemId: null, canonicalEntityId: null, path: "orderTime", before: "ASAP", after: null, permittedActions: ["CHANGE_FULFILLMENT"] },
      ]);
      expect(await blockers(cart)).toEqual(["BLOCKING_CHANGES"]);
    } finally {
      await publishAtHarbor({ kind: "openingHours", openingHours: location?.openingHours ?? {} });
    }
  });

  it("SCHEDULE_CLOSED: the item's menu is no longer served at the order time", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_lobster_benedict" });
    await publishAtHarbor({ kind: "menuAvailability", menuId: "mnu_hk_breakfast", availability: [{ days: [1, 2, 3, 4, 5, 6, 7], opens: "07:00", closes: "09:00" }] });
    try {
      const { body } = await validate(cart);
      expect(changesOf(body)).toEqual([expect.objectContaining({ reason: "SCHEDULE_CLOSED", path: "items.0.servedAtOrderTime", before: true, after: false, canonicalEntityId: "prd_hk_lobster_benedict" })]);
    } finally {
      await publishAtHarbor({ kind: "menuAvailability", menuId: "mnu_hk_breakfast", availability: [{ days: [1, 2, 3, 4, 5, 6, 7], opens: "07:00", closes: "11:30" }] });
    }
  });

  it("FULFILLMENT_UNAVAILABLE: the cart's fulfilment method was switched off", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_boston_cream_pie" });
    await publishAtHarbor({ kind: "fulfilment", method: "takeout", option: { enabled: false } });
    try {
      const { body } = await validate(cart);
      expect(changesOf(body)).toEqual([
        { reason: "FULFILLMENT_UNAVAILABLE", cartItemId: null, canonicalEntityId: null, path: "fulfilmentMethod", before: "takeout", after: null, permittedActions: ["START_NEW_CART"] },
      ]);
      expect(body.catalogRevalidation?.required).toBe(true);
    } finally {
      await publishAtHarbor({ kind: "fulfilment", method: "takeout", option: { enabled: true } });
    }
  });
});

describe("changes applied for acceptance", () => {
  it("QUANTITY_REDUCED: a line above the product's new limit is cut to it; adding past the limit is refused", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_lobster_roll", quantity: 4, selections: [{ modifierGroupId: "mg_hk_lobster_roll_style", optionId: "opt_hk_lobster_roll_connecticut" }] });
    await publishAtHarbor({ kind: "productMaxQuantity", productId: "prd_hk_lobster_roll", maxQuantity: 2 });
    try {
      const { body } = await validate(cart);
      expect(body.items[0]?.quantity).toBe(2);
      expect(changesOf(body)).toEqual([
        expect.objectContaining({ reason: "QUANTITY_REDUCED", cartItemId: added.items[0]?.id, path: "items.0.quantity", before: 4, after: 2, permittedActions: ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"] }),
      ]);
      expect(body.catalogRevalidation).toMatchObject({ required: true, changeSet: { blocking: false } });
      const tooMany = await mutate(app, cart, "PATCH", `/cart-item/${added.items[0]?.id}/quantity`, { quantity: 3 });
      expect(tooMany.status).toBe(400);
      expect(JSON.stringify(tooMany.body)).toMatch(/at most 2/);
      const product = await app.call("GET", `/locations/${HARBOR.locationId}/products/prd_hk_lobster_roll`);
      expect(product.body).toMatchObject({ maxQuantity: 2 });
    } finally {
      await publishAtHarbor({ kind: "productMaxQuantity", productId: "prd_hk_lobster_roll", maxQuantity: null });
    }
  });

  it("POLICY_CHANGED: a new tax rate is applied, reported per fee, and bumps the commerce policy revision", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_crispy_calamari" });
    const { policyRevision } = await publishAtHarbor({ kind: "fees", fees: { taxRate: "0.07" } });
    try {
      expect(await blockers(cart)).toEqual(["POLICY_CHANGED"]);
      const { body } = await validate(cart);
      expect(changesOf(body)).toEqual([
        { reason: "POLICY_CHANGED", cartItemId: null, canonicalEntityId: null, path: "fees.taxRate", before: "0.0625", after: "0.07", permittedActions: ["ACCEPT_CHANGES"] },
      ]);
      expect(body.taxTotal).toBe("1.09");
      expect(added.taxTotal).toBe("0.97");
      expect(body.authorityContext.commercePolicyRevision).toBe(policyRevision);
      expect(body.catalogRevalidation?.changeSet.current.commercePolicyRevision).toBe(policyRevision);
    } finally {
      await publishAtHarbor({ kind: "fees", fees: { taxRate: "0.0625" } });
    }
  });
});

describe("quote expiry", () => {
  it("QUOTE_EXPIRED: an expired cart quote is flagged on read and renewed by validate-and-update", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_crispy_calamari" });
    const start = app.clock.now;
    try {
      app.clock.now = new Date(start.getTime() + 16 * 60_000);
      const { body: flagged } = await read(cart);
      expect(changesOf(flagged)).toEqual([expect.objectContaining({ reason: "QUOTE_EXPIRED", path: "quoteExpiresAt", before: added.quoteExpiresAt, after: null })]);
      expect(flagged.catalogRevalidation?.required).toBe(true);
      expect(await blockers(cart)).toEqual(["QUOTE_EXPIRED"]);
      const { body } = await validate(cart);
      expect(Date.parse(body.quoteExpiresAt ?? "")).toBe(app.clock.now.getTime() + 15 * 60_000);
      expect(body.quoteFingerprint).toBe(added.quoteFingerprint);
      expect(changesOf(body)).toEqual([expect.objectContaining({ reason: "QUOTE_EXPIRED", before: added.quoteExpiresAt, after: body.quoteExpiresAt, permittedActions: [] })]);
      expect(body.catalogRevalidation?.required).toBe(false);
      expect(await blockers(cart)).toEqual([]);
    } finally {
      app.clock.now = start;
    }
  });

  it("checks a cart with nothing to report: required false, no changes, and a new revision", async () => {
    const { cart, body: added } = await cartWith({ productId: "prd_hk_crispy_calamari" });
    const { response, body } = await validate(cart);
    expect(response.status).toBe(200);
    expect(body.revision).toBe(added.revision + 1);
    expect(body.catalogRevalidation).toMatchObject({ required: false, reasonCodes: [], checkedAt: app.clock.now.toISOString(), changeSet: { changes: [] } });
  });

  it("rejects an acceptance without the fingerprint, or a fingerprint without acceptance", async () => {
    const { cart } = await cartWith({ productId: "prd_hk_crispy_calamari" });
    for (const body of [{ accept: true }, { quoteFingerprint: "a".repeat(64) }, { accept: true, quoteFingerprint: "NOT-HEX" }]) {
      const response = await mutate(app, cart, "PUT", "/validate-and-update", body);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toMatch(/quoteFingerprint/);
    }
  });
});
