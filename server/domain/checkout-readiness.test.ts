import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { assertCheckoutReady, checkoutBlockers, type CheckoutCart } from "./checkout-readiness";
import { deliveryQuoteFingerprint, formatAddress, quoteInputsOf, type DeliveryAddress } from "./delivery";
import { revalidate, type CatalogRevalidation } from "./revalidation";

const now = new Date("2030-01-07T15:00:00.000Z");
const location = { catalogRevision: 3, policyRevision: 2 };
const address: DeliveryAddress = { street: "1 City Hall Square", city: "Boston", state: "MA", zipCode: "02201", country: "United States", lat: 42.3603, lng: -71.0578, streetOptional: "" };

function takeout(overrides: Partial<CheckoutCart> = {}): CheckoutCart {
  return {
    fulfilmentMethod: "takeout",
    deliveryInfo: null,
    deliveryQuote: null,
    pickupType: "ASAP",
    orderDate: "",
    orderTime: "",
    priced: { subTotal: 2900 },
    lines: [],
    catalogRevision: 3,
    policyRevision: 2,
    quoteFingerprint: "f".repeat(64),
    quoteExpiresAt: new Date(now.getTime() + 60_000),
    catalogRevalidation: null,
    ...overrides,
  };
}

function delivery(overrides: Partial<CheckoutCart> = {}): CheckoutCart {
  const base = takeout({ fulfilmentMethod: "delivery", deliveryInfo: { addressString: formatAddress(address), addressData: address } });
  const terms = {
    provider: "PARTNER_DRIVE" as const,
    externalDeliveryId: "dlv_1",
    feeMinor: 359,
    taxMinor: 0,
    courierTipMinor: 0,
    currency: "usd",
    quotedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 60_000).toISOString(),
  };
  return { ...base, deliveryQuote: { ...terms, quoteFingerprint: deliveryQuoteFingerprint(terms, quoteInputsOf(base, address)) }, ...overrides };
}

function revalidation(kind: "blocking" | "acknowledge"): CatalogRevalidation {
  const products = new Map([["prd_a", { id: "prd_a", name: "A", description: "", imageUrl: "", categoryId: "c", priceMinor: kind === "acknowledge" ? 200 : 100, available: kind !== "blocking", maxQuantity: null, modifierGroups: [], menuAvailability: null }]]);
  return revalidate({
    cart: {
      revision: 1,
      catalogRevision: 2,
      policyRevision: 2,
      currency: "usd",
      fulfilmentMethod: "takeout",
      pickupType: "ASAP",
      orderDate: "",
      orderTime: "",
      lines: [{ id: "li", productId: "prd_a", name: "A", description: "", imageUrl: "", categoryId: "c", quantity: 1, basePriceMinor: 100, selections: [], specialInstructions: "", itemUnavailableAction: "remove_item" }],
      fees: { enterpriseFeeRate: "0", enterpriseFeeFixMinor: 0, serviceFeeRate: "0", serviceFeeFixMinor: 0, taxRate: "0", tipRate: "0", fulfillmentMethodFeeFixMinor: 0, fulfillmentMethodFeeRate: "0", paymentProcessingFeeRate: "0", paymentProcessingFeeFixMinor: 0 },
      hasDiscount: false,
      catalogRevalidation: null,
    },
    catalog: {
      catalogRevision: 3,
      policyRevision: 2,
      timeZone: "UTC",
      openingHours: { "1": [{ opens: "00:00", closes: "24:00" }] },
      fulfilment: { takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 0, slotMinutes: 15 } },
      fees: { taxRate: "0", serviceFeeRate: "0", serviceFeeFixMinor: 0, enterpriseFeeRate: "0", enterpriseFeeFixMinor: 0, paymentProcessingFeeRate: "0", paymentProcessingFeeFixMinor: 0 },
      products,
    },
    quote: { state: "current" },
    delivery: { state: "none" },
    now,
    nextCartRevision: 2,
  }).revalidation;
}

const codes = (cart: CheckoutCart) => checkoutBlockers(cart, location, now).map((blocker) => blocker.code);

describe("checkoutBlockers", () => {
  it("is empty for a current takeout cart and a current delivery cart", () => {
    expect(codes(takeout())).toEqual([]);
    expect(codes(delivery())).toEqual([]);
  });

  it("flags a missing or expired cart quote", () => {
    expect(codes(takeout({ quoteFingerprint: null, quoteExpiresAt: null }))).toEqual(["NO_QUOTE"]);
    expect(codes(takeout({ quoteExpiresAt: now }))).toEqual(["QUOTE_EXPIRED"]);
  });

  it("flags catalog and policy publications the cart has not seen", () => {
    expect(codes(takeout({ catalogRevision: 2 }))).toEqual(["CATALOG_CHANGED"]);
    expect(codes(takeout({ policyRevision: 1 }))).toEqual(["POLICY_CHANGED"]);
  });

  it("flags a delivery cart without address, without quote, or with a stale or expired quote", () => {
    expect(codes(delivery({ deliveryInfo: null }))).toEqual(["DELIVERY_ADDRESS_MISSING"]);
    expect(codes(delivery({ deliveryQuote: null }))).toEqual(["DELIVERY_QUOTE_MISSING"]);
    expect(codes(delivery({ priced: { subTotal: 3000 } }))).toEqual(["DELIVERY_QUOTE_STALE"]);
    expect(checkoutBlockers(delivery(), location, new Date(now.getTime() + 60_000)).map((blocker) => blocker.code)).toEqual(["QUOTE_EXPIRED", "DELIVERY_QUOTE_EXPIRED"]);
  });

  it("flags unresolved blocking changes (with their paths) and unaccepted applied ones", () => {
    const blocked = checkoutBlockers(takeout({ catalogRevalidation: revalidation("blocking") }), location, now);
    expect(blocked).toEqual([expect.objectContaining({ code: "BLOCKING_CHANGES", paths: ["items.0.available"] })]);
    const applied = revalidation("acknowledge");
    expect(codes(takeout({ catalogRevalidation: applied }))).toEqual(["CHANGES_NOT_ACKNOWLEDGED"]);
    expect(codes(takeout({ catalogRevalidation: { ...applied, required: false, acknowledgedAt: now.toISOString() } }))).toEqual([]);
  });
});

describe("assertCheckoutReady", () => {
  it("throws 409 REQUOTE_REQUIRED listing the blockers, and passes a ready cart", () => {
    expect(() => assertCheckoutReady(takeout(), location, now)).not.toThrow();
    try {
      assertCheckoutReady(takeout({ catalogRevision: 1, quoteExpiresAt: now }), location, now);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).toBe("REQUOTE_REQUIRED");
      expect(appError.status).toBe(409);
      expect(appError.details).toEqual({ blockers: [expect.objectContaining({ code: "QUOTE_EXPIRED" }), expect.objectContaining({ code: "CATALOG_CHANGED" })] });
    }
  });
});
