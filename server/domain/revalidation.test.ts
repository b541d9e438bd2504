import { describe, expect, it } from "vitest";
import type { CartLine } from "./cart-types";
import type { FeePolicy, FulfilmentPolicy, WeeklyHours } from "./catalog-types";
import type { DeliveryQuote } from "./delivery";
import {
  acknowledgeRevalidation,
  changeKind,
  reasonCodes,
  revalidate,
  type CatalogFacts,
  type CatalogProduct,
  type Change,
  type RevalidationCart,
  type RevalidationInput,
} from "./revalidation";

// Monday 2030-01-07, 10:00 in New York.
const now = new Date("2030-01-07T15:00:00.000Z");
const allDay: WeeklyHours = Object.fromEntries(["1", "2", "3", "4", "5", "6", "7"].map((day) => [day, [{ opens: "00:00", closes: "24:00" }]]));

const fees: FeePolicy = {
  taxRate: "0.0625",
  serviceFeeRate: "0.03",
  serviceFeeFixMinor: 0,
  enterpriseFeeRate: "0.01",
  enterpriseFeeFixMinor: 10,
  paymentProcessingFeeRate: "0.029",
  paymentProcessingFeeFixMinor: 30,
};

const fulfilment: FulfilmentPolicy = {
  takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 15, slotMinutes: 15 },
  delivery: { enabled: true, feeFixMinor: 199, feeRate: "0", leadMinutes: 45, slotMinutes: 15 },
};

const burger: CatalogProduct = {
  id: "prd_burger",
  name: "Burger",
  description: "Two patties",
  imageUrl: "",
  categoryId: "cat_mains",
  priceMinor: 1450,
  available: true,
  maxQuantity: null,
  menuAvailability: null,
  modifierGroups: [
    {
      id: "mg_side",
      name: "Side",
      minSelections: 1,
      maxSelections: 1,
      maxPerOption: 1,
      options: [
        { id: "opt_fries", name: "Fries", priceMinor: 0, available: true },
        { id: "opt_salad", name: "Salad", priceMinor: 150, available: true },
      ],
    },
    {
      id: "mg_toppings",
      name: "Toppings",
      minSelections: 0,
      maxSelections: 3,
      maxPerOption: 2,
      options: [{ id: "opt_bacon", name: "Bacon", priceMinor: 250, available: true }],
    },
  ],
};

const soup: CatalogProduct = { ...burger, id: "prd_soup", name: "Soup", priceMinor: 800, modifierGroups: [] };

const burgerLine: CartLine = {
  id: "li_burger",
  productId: "prd_burger",
  name: "Burger",
  description: "Two patties",
  imageUrl: "",
  categoryId: "cat_mains",
  quantity: 2,
  basePriceMinor: 1450,
  selections: [
    { modifierGroupId: "mg_side", modifierGroupName: "Side", optionId: "opt_salad", optionName: "Salad", quantity: 1, priceMinor: 150 },
    { modifierGroupId: "mg_toppings", modifierGroupName: "Toppings", optionId: "opt_bacon", optionName: "Bacon", quantity: 2, priceMinor: 250 },
  ],
  specialInstructions: "",
  itemUnavailableAction: "remove_item",
};

const soupLine: CartLine = { ...burgerLine, id: "li_soup", productId: "prd_soup", name: "Soup", quantity: 1, basePriceMinor: 800, selections: [] };

function catalog(overrides: Partial<CatalogFacts> = {}, products: CatalogProduct[] = [burger, soup]): CatalogFacts {
  return {
    catalogRevision: 2,
    policyRevision: 1,
    timeZone: "America/New_York",
    openingHours: allDay,
    fulfilment,
    fees,
    products: new Map(products.map((product) => [product.id, product])),
    ...overrides,
  };
}

function cart(overrides: Partial<RevalidationCart> = {}): RevalidationCart {
  return {
    revision: 5,
    catalogRevision: 1,
    policyRevision: 1,
    currency: "usd",
    fulfilmentMethod: "takeout",
    pickupType: "ASAP",
    orderDate: "",
    orderTime: "",
    lines: [burgerLine, soupLine],
    fees: {
      enterpriseFeeRate: fees.enterpriseFeeRate,
      enterpriseFeeFixMinor: fees.enterpriseFeeFixMinor,
      serviceFeeRate: fees.serviceFeeRate,
      serviceFeeFixMinor: fees.serviceFeeFixMinor,
      taxRate: fees.taxRate,
      tipRate: "0",
      fulfillmentMethodFeeFixMinor: 0,
      fulfillmentMethodFeeRate: "0",
      paymentProcessingFeeRate: fees.paymentProcessingFeeRate,
      paymentProcessingFeeFixMinor: fees.paymentProcessingFeeFixMinor,
    },
    hasDiscount: false,
    catalogRevalidation: null,
    ...overrides,
  };
}

function run(overrides: Partial<RevalidationInput> = {}) {
  return revalidate({ cart: cart(), catalog: catalog(), quote: { state: "current" }, delivery: { state: "none" }, now, nextCartRevision: 6, ...overrides });
}

const withBurger = (changes: Partial<CatalogProduct>) => catalog({}, [{ ...burger, ...changes }, soup]);
const onlyChange = (changes: Change[]) => {
  expect(changes).toHaveLength(1);
  return changes[0] as Change;
};

describe("revalidate: nothing changed", () => {
  it("reports no changes, requires nothing, keeps the lines and records both revision sets", () => {
    const { lines, revalidation } = run();
    expect(lines).toEqual([burgerLine, soupLine]);
    expect(revalidation).toMatchObject({ required: false, reasonCodes: [], checkedAt: now.toISOString(), acknowledgedAt: null });
    expect(revalidation.changeSet).toEqual({
      version: 1,
      previous: { cartRevision: 5, catalogPublicationRevision: 1, resolvedCatalogSnapshotRevision: 1, commercePolicyRevision: 1, providerBindingRevision: null },
      current: { cartRevision: 6, catalogPublicationRevision: 2, resolvedCatalogSnapshotRevision: 2, commercePolicyRevision: 1, providerBindingRevision: null },
      reasonCodes: [],
      changes: [],
      blocking: false,
      reconfirmationRequired: false,
      invalidatedEvidence: { quote: false, benefits: false, paymentAuthorization: false },
    });
  });

  it("is deterministic", () => {
    expect(run()).toEqual(run());
  });
});

describe("revalidate: blocking reasons", () => {
  it("ITEM_UNAVAILABLE: a product deleted or moved to another location", () => {
    const { lines, revalidation } = run({ catalog: catalog({}, [soup]) });
    expect(onlyChange(revalidation.changeSet.changes)).toEqual({
      reason: "ITEM_UNAVAILABLE",
      cartItemId: "li_burger",
      canonicalEntityId: "prd_burger",
      path: "items.0.productId",
      before: "prd_burger",
      after: null,
      permittedActions: ["REMOVE_ITEM"],
    });
    expect(lines[0]).toEqual(burgerLine);
    expect(revalidation).toMatchObject({ required: true, reasonCodes: ["ITEM_UNAVAILABLE"], changeSet: { blocking: true, reconfirmationRequired: false } });
  });

  it("ITEM_SOLD_OUT: a product marked unavailable", () => {
    const { revalidation } = run({ catalog: withBurger({ available: false }) });
    expect(onlyChange(revalidation.changeSet.changes)).toMatchObject({ reason: "ITEM_SOLD_OUT", path: "items.0.available", before: true, after: false, permittedActions: ["REMOVE_ITEM"] });
    expect(revalidation.changeSet.blocking).toBe(true);
  });

  it("MODIFIER_UNAVAILABLE: a selected option withdrawn, removed, or its group removed", () => {
    const sides = burger.modifierGroups[0];
    const toppings = burger.modifierGroups[1];
    if (!sides || !toppings) throw new Error("fixture");
    const withdrawn = run({ catalog: withBurger({ modifierGroups: [{ ...sides, options: sides.options.map((option) => ({ ...option, available: option.id !== "opt_salad" })) }, toppings] }) });
    expect(onlyChange(withdrawn.revalidation.changeSet.changes)).toEqual({
      reason: "MODIFIER_UNAVAILABLE",
      cartItemId: "li_burger",
      canonicalEntityId: "opt_salad",
      path: "items.0.selections.0.optionId",
      before: "opt_salad",
      after: null,
      permittedActions: ["RESELECT_MODIFIERS", "REMOVE_ITEM"],
    });
    const removed = run({ catalog: withBurger({ modifierGroups: [{ ...sides, options: sides.options.filter((option) => option.id !== "opt_salad") }, toppings] }) });
    expect(onlyChange(removed.revalidation.changeSet.changes)).toMatchObject({ reason: "MODIFIER_UNAVAILABLE", path: "items.0.selections.0.optionId" });
    const groupGone = run({ catalog: withBurger({ modifierGroups: [sides] }) });
    expect(onlyChange(groupGone.revalidation.changeSet.changes)).toMatchObject({ reason: "MODIFIER_UNAVAILABLE", path: "items.0.selections.1.optionId", before: "opt_bacon" });
    expect(groupGone.revalidation.changeSet.blocking).toBe(true);
  });

  it("MODIFIER_RULE_CHANGED: a lower maximum per option, or a group's new selection range", () => {
    const sides = burger.modifierGroups[0];
    const toppings = burger.modifierGroups[1];
    if (!sides || !toppings) throw new Error("fixture");
    const perOption = run({ catalog: withBurger({ modifierGroups: [sides, { ...toppings, maxPerOption: 1 }] }) });
    expect(onlyChange(perOption.revalidation.changeSet.changes)).toEqual({
      reason: "MODIFIER_RULE_CHANGED",
      cartItemId: "li_burger",
      canonicalEntityId: "mg_toppings",
      path: "items.0.selections.1.quantity",
      before: 2,
      after: 1,
      permittedActions: ["RESELECT_MODIFIERS", "REMOVE_ITEM"],
    });
    const range = run({ catalog: withBurger({ modifierGroups: [{ ...sides, minSelections: 2, maxSelections: 2 }, toppings] }) });
    expect(onlyChange(range.revalidation.changeSet.changes)).toMatchObject({ reason: "MODIFIER_RULE_CHANGED", path: "items.0.modifierGroups.mg_side", before: 1, after: "2..2" });
    const newRequiredGroup = run({
      catalog: withBurger({ modifierGroups: [sides, toppings, { id: "mg_bun", name: "Bun", minSelections: 1, maxSelections: 1, maxPerOption: 1, options: [] }] }),
    });
    expect(onlyChange(newRequiredGroup.revalidation.changeSet.changes)).toMatchObject({ reason: "MODIFIER_RULE_CHANGED", path: "items.0.modifierGroups.mg_bun", before: 0, after: "1..1" });
    expect(range.revalidation.changeSet.blocking).toBe(true);
  });

  it("SCHEDULE_CLOSED: the location closed at an ASAP order's time", () => {
    const { revalidation } = run({ catalog: catalog({ openingHours: { "2": [{ opens: "09:00", closes: "17:00" }] } }) });
    expect(onlyChange(revalidation.changeSet.changes)).toEqual({
      reason: "SCHEDULE_CLOSED",
      cartItemId: null,
      canonicalEntityId: null,
      path: "orderTime",
      before: "ASAP",
      after: null,
      permittedActions: ["CHANGE_FULFILLMENT"],
    });
    expect(revalidation.changeSet.blocking).toBe(true);
  });

  it("SCHEDULE_CLOSED: a scheduled slot that is no longer bookable", () => {
    const later = cart({ pickupType: "LATER", orderDate: "2030-01-07", orderTime: "18:00" });
    expect(run({ cart: later }).revalidation.changeSet.changes).toEqual([]);
    const shorter = run({ cart: later, catalog: catalog({ openingHours: { ...allDay, "1": [{ opens: "08:00", closes: "17:00" }] } }) });
    expect(onlyChange(shorter.revalidation.changeSet.changes)).toMatchObject({ reason: "SCHEDULE_CLOSED", path: "orderTime", before: "2030-01-07 18:00" });
  });

  it("SCHEDULE_CLOSED: an item whose menu is not served at the order time", () => {
    const breakfast = run({ catalog: withBurger({ menuAvailability: [{ days: [1, 2, 3, 4, 5, 6, 7], opens: "07:00", closes: "09:30" }] }) });
    expect(onlyChange(breakfast.revalidation.changeSet.changes)).toEqual({
      reason: "SCHEDULE_CLOSED",
      cartItemId: "li_burger",
      canonicalEntityId: "prd_burger",
      path: "items.0.servedAtOrderTime",
      before: true,
      after: false,
      permittedActions: ["CHANGE_FULFILLMENT", "REMOVE_ITEM"],
    });
  });

  it("FULFILLMENT_UNAVAILABLE: the cart's fulfilment method switched off", () => {
    const { revalidation } = run({ catalog: catalog({ fulfilment: { ...fulfilment, takeout: { ...fulfilment.takeout!, enabled: false } } }) });
    expect(onlyChange(revalidation.changeSet.changes)).toEqual({
      reason: "FULFILLMENT_UNAVAILABLE",
      cartItemId: null,
      canonicalEntityId: null,
      path: "fulfilmentMethod",
      before: "takeout",
      after: null,
      permittedActions: ["START_NEW_CART"],
    });
  });

  it("FULFILLMENT_UNAVAILABLE: the courier refuses the address on renewal", () => {
    const { revalidation } = run({ delivery: { state: "rejected", addressString: "1 Far Away Rd", message: "out of range" } });
    expect(onlyChange(revalidation.changeSet.changes)).toMatchObject({
      reason: "FULFILLMENT_UNAVAILABLE",
      path: "deliveryInfo.addressString",
      before: "1 Far Away Rd",
      after: null,
      permittedActions: ["CHANGE_FULFILLMENT", "START_NEW_CART"],
    });
    expect(revalidation.changeSet.blocking).toBe(true);
  });
});

describe("revalidate: changes applied for the customer to accept", () => {
  it("PRICE_CHANGED: applies a new product price and asks for acknowledgement", () => {
    const { lines, revalidation } = run({ catalog: withBurger({ priceMinor: 1550 }) });
    expect(onlyChange(revalidation.changeSet.changes)).toEqual({
      reason: "PRICE_CHANGED",
      cartItemId: "li_burger",
      canonicalEntityId: "prd_burger",
      path: "items.0.product.price",
      before: "14.50",
      after: "15.50",
      permittedActions: ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"],
    });
    expect(lines[0]?.basePriceMinor).toBe(1550);
    expect(revalidation).toMatchObject({ required: true, changeSet: { blocking: false, reconfirmationRequired: true, invalidatedEvidence: { quote: true, benefits: false, paymentAuthorization: true } } });
    const accepted = acknowledgeRevalidation(revalidation, now);
    expect(accepted).toMatchObject({ required: false, acknowledgedAt: now.toISOString() });
  });

  it("PRICE_CHANGED: applies a new option price", () => {
    const sides = burger.modifierGroups[0];
    const toppings = burger.modifierGroups[1];
    if (!sides || !toppings) throw new Error("fixture");
    const { lines, revalidation } = run({ catalog: withBurger({ modifierGroups: [sides, { ...toppings, options: [{ id: "opt_bacon", name: "Bacon", priceMinor: 300, available: true }] }] }) });
    expect(onlyChange(revalidation.changeSet.changes)).toMatchObject({ reason: "PRICE_CHANGED", canonicalEntityId: "opt_bacon", path: "items.0.selections.1.price", before: "2.50", after: "3.00" });
    expect(lines[0]?.selections[1]?.priceMinor).toBe(300);
  });

  it("PRICE_CHANGED with a discount on the cart invalidates the benefits too", () => {
    const { revalidation } = run({ cart: cart({ hasDiscount: true }), catalog: withBurger({ priceMinor: 1550 }) });
    expect(revalidation.changeSet.invalidatedEvidence.benefits).toBe(true);
  });

  it("QUANTITY_REDUCED: a line above the product's new maximum is cut down to it", () => {
    const { lines, revalidation } = run({ catalog: withBurger({ maxQuantity: 1 }) });
    expect(onlyChange(revalidation.changeSet.changes)).toEqual({
      reason: "QUANTITY_REDUCED",
      cartItemId: "li_burger",
      canonicalEntityId: "prd_burger",
      path: "items.0.quantity",
      before: 2,
      after: 1,
      permittedActions: ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"],
    });
    expect(lines[0]?.quantity).toBe(1);
    expect(run({ catalog: withBurger({ maxQuantity: 2 }) }).revalidation.changeSet.changes).toEqual([]);
  });

  it("POLICY_CHANGED: one entry per customer-facing fee, none for merchant-borne ones", () => {
    const { revalidation } = run({
      catalog: catalog({
        policyRevision: 2,
        fees: { ...fees, taxRate: "0.07", serviceFeeFixMinor: 50, paymentProcessingFeeRate: "0.03" },
        fulfilment: { ...fulfilment, takeout: { ...fulfilment.takeout!, feeFixMinor: 100 } },
      }),
    });
    expect(revalidation.changeSet.changes.map((change) => [change.reason, change.path, change.before, change.after])).toEqual([
      ["POLICY_CHANGED", "fees.taxRate", "0.0625", "0.07"],
      ["POLICY_CHANGED", "fees.serviceFeeFix", "0.00", "0.50"],
      ["POLICY_CHANGED", "fees.fulfillmentMethodFeeFix", "0.00", "1.00"],
    ]);
    expect(revalidation.changeSet.current.commercePolicyRevision).toBe(2);
    expect(revalidation.changeSet.blocking).toBe(false);
    expect(run({ catalog: catalog({ fees: { ...fees, enterpriseFeeRate: "0.02" } }) }).revalidation.changeSet.changes).toEqual([]);
    expect(run({ catalog: catalog({ fees: { ...fees, taxRate: "0.06250" } }) }).revalidation.changeSet.changes).toEqual([]);
  });

  it("POLICY_CHANGED is not reported for an empty cart, which costs nothing", () => {
    expect(run({ cart: cart({ lines: [] }), catalog: catalog({ fees: { ...fees, taxRate: "0.07" } }) }).revalidation.changeSet.changes).toEqual([]);
  });
});

describe("revalidate: quotes", () => {
  const quote: DeliveryQuote = {
    provider: "PARTNER_DRIVE",
    externalDeliveryId: "dlv_old",
    quoteFingerprint: "a".repeat(64),
    feeMinor: 359,
    taxMinor: 0,
    courierTipMinor: 0,
    currency: "usd",
    quotedAt: "2030-01-07T14:50:00.000Z",
    expiresAt: "2030-01-07T14:55:00.000Z",
  };

  it("QUOTE_EXPIRED: an expired cart quote waits for renewal, then is recorded as renewed", () => {
    const pending = run({ quote: { state: "expired", expiredAt: "2030-01-07T14:59:00.000Z" } }).revalidation;
    const entry = onlyChange(pending.changeSet.changes);
    expect(entry).toMatchObject({ reason: "QUOTE_EXPIRED", path: "quoteExpiresAt", before: "2030-01-07T14:59:00.000Z", after: null, permittedActions: ["ACCEPT_CHANGES"] });
    expect(changeKind(entry)).toBe("renewal");
    expect(pending).toMatchObject({ required: true, changeSet: { blocking: false, reconfirmationRequired: true } });
    // Accepting does not stand in for the renewal.
    expect(acknowledgeRevalidation(pending, now).required).toBe(true);

    const renewed = run({ quote: { state: "renewed", expiredAt: "2030-01-07T14:59:00.000Z", expiresAt: "2030-01-07T15:15:00.000Z" } }).revalidation;
    expect(onlyChange(renewed.changeSet.changes)).toMatchObject({ reason: "QUOTE_EXPIRED", after: "2030-01-07T15:15:00.000Z", permittedActions: [] });
    expect(renewed).toMatchObject({ required: false, reasonCodes: ["QUOTE_EXPIRED"], changeSet: { reconfirmationRequired: false, invalidatedEvidence: { quote: false } } });
  });

  it("QUOTE_EXPIRED: a stale or expired courier quote waits for renewal", () => {
    for (const state of ["stale", "expired"] as const) {
      const { revalidation } = run({ delivery: { state, quote } });
      expect(onlyChange(revalidation.changeSet.changes)).toMatchObject({ reason: "QUOTE_EXPIRED", path: "deliveryQuote", before: "dlv_old", after: null });
      expect(revalidation.required).toBe(true);
    }
  });

  it("QUOTE_EXPIRED: a renewed courier quote is informational at the same fee, to be accepted at a new one", () => {
    const same = run({ delivery: { state: "renewed", before: quote, after: { ...quote, externalDeliveryId: "dlv_new" } } }).revalidation;
    expect(onlyChange(same.changeSet.changes)).toMatchObject({ path: "deliveryQuote.externalDeliveryId", before: "dlv_old", after: "dlv_new", permittedActions: [] });
    expect(same.required).toBe(false);
    const dearer = run({ delivery: { state: "renewed", before: quote, after: { ...quote, externalDeliveryId: "dlv_new", feeMinor: 419, taxMinor: 25 } } }).revalidation;
    expect(dearer.changeSet.changes.map((change) => [change.path, change.before, change.after, change.permittedActions])).toEqual([
      ["deliveryQuote.externalDeliveryId", "dlv_old", "dlv_new", []],
      ["deliveryQuote.fee", "3.59", "4.19", ["ACCEPT_CHANGES"]],
      ["deliveryQuote.tax", "0.00", "0.25", ["ACCEPT_CHANGES"]],
    ]);
    expect(dearer.required).toBe(true);
  });

  it("never produces MAPPING_MISSING: the platform prices from its own catalog", () => {
    expect(reasonCodes).toContain("MAPPING_MISSING");
    const everything = run({ catalog: catalog({ fees: { ...fees, taxRate: "0.1" } }, [{ ...burger, available: false }]), delivery: { state: "stale", quote } });
    expect(everything.revalidation.reasonCodes).not.toContain("MAPPING_MISSING");
  });
});

describe("revalidate: folding into an earlier result", () => {
  it("reports reason codes in the spec's order and several lines at once", () => {
    const { revalidation } = run({ catalog: catalog({}, [{ ...burger, priceMinor: 1500 }, { ...soup, available: false }]) });
    expect(revalidation.reasonCodes).toEqual(["ITEM_SOLD_OUT", "PRICE_CHANGED"]);
    expect(revalidation.changeSet.changes.map((change) => change.path)).toEqual(["items.0.product.price", "items.1.available"]);
    expect(revalidation.changeSet).toMatchObject({ blocking: true, reconfirmationRequired: true });
  });

  it("carries applied changes until accepted, re-pointing paths after a line is removed, and drops resolved blocking ones", () => {
    const first = run({ cart: cart({ lines: [soupLine, burgerLine] }), catalog: catalog({}, [{ ...burger, priceMinor: 1550 }, { ...soup, available: false }]) });
    expect(first.revalidation.changeSet.changes.map((change) => change.path)).toEqual(["items.0.available", "items.1.product.price"]);
    // The customer removes the sold-out soup; the applied burger price is now in the line itself.
    const afterRemoval = revalidate({
      cart: cart({ revision: 6, catalogRevision: 2, lines: [first.lines[1] as CartLine], catalogRevalidation: first.revalidation }),
      catalog: catalog({}, [{ ...burger, priceMinor: 1550 }, { ...soup, available: false }]),
      quote: { state: "current" },
      delivery: { state: "none" },
      now,
      nextCartRevision: 7,
    }).revalidation;
    expect(afterRemoval.changeSet.changes).toEqual([expect.objectContaining({ reason: "PRICE_CHANGED", path: "items.0.product.price", before: "14.50", after: "15.50" })]);
    expect(afterRemoval).toMatchObject({ required: true, acknowledgedAt: null, changeSet: { blocking: false } });
    // The pending set keeps its original starting point.
    expect(afterRemoval.changeSet.previous.cartRevision).toBe(5);
    expect(afterRemoval.changeSet.current.cartRevision).toBe(7);
  });

  it("keeps the first `before` when a field changes twice, and drops a change that was undone", () => {
    const first = run({ catalog: withBurger({ priceMinor: 1550 }) });
    const again = (priceMinor: number) =>
      revalidate({
        cart: cart({ revision: 6, catalogRevision: 2, lines: first.lines, catalogRevalidation: first.revalidation }),
        catalog: { ...withBurger({ priceMinor }), catalogRevision: 3 },
        quote: { state: "current" },
        delivery: { state: "none" },
        now,
        nextCartRevision: 7,
      }).revalidation;
    expect(onlyChange(again(1650).changeSet.changes)).toMatchObject({ path: "items.0.product.price", before: "14.50", after: "16.50" });
    expect(again(1450).changeSet.changes).toEqual([]);
    expect(again(1450).required).toBe(false);
  });

  it("keeps accepted changes as history, and a new change after acceptance needs a new acceptance", () => {
    const first = run({ catalog: withBurger({ priceMinor: 1550 }) });
    const accepted = acknowledgeRevalidation(first.revalidation, now);
    const base = cart({ revision: 6, catalogRevision: 2, lines: first.lines, catalogRevalidation: accepted });
    const quiet = revalidate({ cart: base, catalog: withBurger({ priceMinor: 1550 }), quote: { state: "current" }, delivery: { state: "none" }, now, nextCartRevision: 7 }).revalidation;
    expect(quiet).toMatchObject({ required: false, acknowledgedAt: now.toISOString() });
    expect(quiet.changeSet.changes).toHaveLength(1);
    const later = revalidate({ cart: base, catalog: { ...withBurger({ priceMinor: 1550 }), fees: { ...fees, taxRate: "0.07" }, policyRevision: 2 }, quote: { state: "current" }, delivery: { state: "none" }, now, nextCartRevision: 7 }).revalidation;
    expect(later.changeSet.changes.map((change) => change.reason)).toEqual(["POLICY_CHANGED"]);
    expect(later).toMatchObject({ required: true, acknowledgedAt: null });
  });
});
