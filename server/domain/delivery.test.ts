import { describe, expect, it } from "vitest";
import {
  CART_QUOTE_TTL_MS,
  cartQuoteExpiry,
  deliveryQuoteFingerprint,
  deliveryQuoteState,
  formatAddress,
  haversineKm,
  quoteInputsOf,
  type DeliveryAddress,
  type DeliveryCartFacts,
  type DeliveryQuote,
} from "./delivery";

const address: DeliveryAddress = {
  street: "1 City Hall Square",
  city: "Boston",
  state: "MA",
  zipCode: "02201",
  country: "United States",
  lat: 42.3603,
  lng: -71.0578,
  streetOptional: "",
};

const now = new Date("2030-03-04T15:00:00.000Z");

function quotedCart(overrides: Partial<DeliveryCartFacts> = {}): DeliveryCartFacts {
  const base: DeliveryCartFacts = {
    fulfilmentMethod: "delivery",
    deliveryInfo: { addressString: formatAddress(address), addressData: address },
    deliveryQuote: null,
    pickupType: "ASAP",
    orderDate: "",
    orderTime: "",
    priced: { subTotal: 4200 },
  };
  const terms = {
    provider: "PARTNER_DRIVE" as const,
    externalDeliveryId: "dlv_1",
    feeMinor: 359,
    taxMinor: 0,
    courierTipMinor: 0,
    currency: "usd",
    quotedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 5 * 60_000).toISOString(),
  };
  const quote: DeliveryQuote = { ...terms, quoteFingerprint: deliveryQuoteFingerprint(terms, quoteInputsOf(base, address)) };
  return { ...base, deliveryQuote: quote, ...overrides };
}

describe("formatAddress", () => {
  it("joins the parts in postal order and skips an empty second line", () => {
    expect(formatAddress(address)).toBe("1 City Hall Square, Boston, MA 02201, United States");
    expect(formatAddress({ ...address, streetOptional: " Suite 5 " })).toBe("1 City Hall Square, Suite 5, Boston, MA 02201, United States");
  });
});

describe("haversineKm", () => {
  it("measures great-circle distance", () => {
    expect(haversineKm({ lat: 42.3597, lng: -71.0509 }, { lat: 42.3603, lng: -71.0578 })).toBeCloseTo(0.571, 2);
    // London to Paris is about 344 km.
    expect(haversineKm({ lat: 51.5074, lng: -0.1278 }, { lat: 48.8566, lng: 2.3522 })).toBeCloseTo(343.9, 0);
    expect(haversineKm({ lat: 10, lng: 20 }, { lat: 10, lng: 20 })).toBe(0);
  });
});

describe("deliveryQuoteState", () => {
  it("is current while address, order time and subtotal are what was quoted, and expires with the quote", () => {
    const cart = quotedCart();
    expect(deliveryQuoteState(cart, now)).toBe("current");
    expect(deliveryQuoteState(cart, new Date(now.getTime() + 5 * 60_000))).toBe("expired");
  });

  it("is stale when the subtotal, order time or address changed", () => {
    const cart = quotedCart();
    expect(deliveryQuoteState({ ...cart, priced: { subTotal: 4300 } }, now)).toBe("stale");
    expect(deliveryQuoteState({ ...cart, pickupType: "LATER", orderDate: "2030-03-04", orderTime: "18:00" }, now)).toBe("stale");
    const moved = { ...address, lat: 42.37 };
    expect(deliveryQuoteState({ ...cart, deliveryInfo: { addressString: formatAddress(moved), addressData: moved } }, now)).toBe("stale");
  });

  it("is stale when the quote's own terms were altered", () => {
    const cart = quotedCart();
    const quote = cart.deliveryQuote;
    if (!quote) throw new Error("fixture has a quote");
    expect(deliveryQuoteState({ ...cart, deliveryQuote: { ...quote, feeMinor: 1 } }, now)).toBe("stale");
  });

  it("is none for other fulfilment methods or without address or quote", () => {
    expect(deliveryQuoteState(quotedCart({ fulfilmentMethod: "takeout" }), now)).toBe("none");
    expect(deliveryQuoteState(quotedCart({ deliveryQuote: null }), now)).toBe("none");
    expect(deliveryQuoteState(quotedCart({ deliveryInfo: null }), now)).toBe("none");
  });
});

describe("cartQuoteExpiry", () => {
  it("is the cart TTL, capped by the courier quote", () => {
    expect(cartQuoteExpiry(now, null).getTime()).toBe(now.getTime() + CART_QUOTE_TTL_MS);
    const courierExpiry = new Date(now.getTime() + 5 * 60_000).toISOString();
    expect(cartQuoteExpiry(now, { expiresAt: courierExpiry }).toISOString()).toBe(courierExpiry);
    const late = new Date(now.getTime() + 60 * 60_000).toISOString();
    expect(cartQuoteExpiry(now, { expiresAt: late }).getTime()).toBe(now.getTime() + CART_QUOTE_TTL_MS);
  });
});
