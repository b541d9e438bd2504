import type { FulfilmentMethod, PickupType } from "./cart-types";
import { fingerprint } from "./fingerprint";
import type { Minor } from "./money";

/** Delivery addresses, courier quotes and when a quote stops being good. Pure, no I/O. */
export const deliveryCountries = ["United States", "United Arab Emirates", "Australia", "United Kingdom"] as const;
export type DeliveryCountry = (typeof deliveryCountries)[number];

export type DeliveryAddress = {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: DeliveryCountry;
  lat: number;
  lng: number;
  streetOptional: string;
};

export type DeliveryInfo = { addressString: string; addressData: DeliveryAddress };

/** The spec's deliveryQuote object, stored as-is on the cart. */
export type DeliveryQuote = {
  provider: "PARTNER_DRIVE";
  externalDeliveryId: string;
  quoteFingerprint: string;
  feeMinor: Minor;
  taxMinor: Minor;
  courierTipMinor: Minor;
  currency: string;
  quotedAt: string;
  expiresAt: string;
  pickupEstimatedAt?: string;
  dropoffEstimatedAt?: string;
  status?: string;
  trackingUrl?: string;
  supportReference?: string;
};

/** How long a priced cart may be paid against before it must be re-quoted. */
export const CART_QUOTE_TTL_MS = 15 * 60_000;

/** "1 Main St, Apt 4, Boston, MA 02110, United States": one line a courier and a customer both read. */
export function formatAddress(address: DeliveryAddress): string {
  const street = [address.street, address.streetOptional].map((part) => part.trim()).filter((part) => part.length > 0);
  return [...street, address.city.trim(), `${address.state.trim()} ${address.zipCode.trim()}`, address.country].join(", ");
}

/** What a courier quote was computed for: when any of these changes, the quote no longer applies. */
export type QuoteInputs = {
  address: DeliveryAddress;
  pickupType: PickupType;
  orderDate: string;
  orderTime: string;
  /** The order's subtotal after discount, which couriers price and insure against. */
  orderValueMinor: Minor;
};

type QuoteTerms = Pick<DeliveryQuote, "provider" | "externalDeliveryId" | "feeMinor" | "taxMinor" | "courierTipMinor" | "currency" | "expiresAt">;

/**
 * The delivery quote's own fingerprint binds its terms to the inputs it was quoted for. A quote
 * is stale exactly when recomputing this over the cart's current inputs gives a different value,
 * so no copy of the inputs needs to be stored next to the quote.
 */
export function deliveryQuoteFingerprint(quote: QuoteTerms, inputs: QuoteInputs): string {
  return fingerprint({
    terms: {
      provider: quote.provider,
      externalDeliveryId: quote.externalDeliveryId,
      feeMinor: quote.feeMinor,
      taxMinor: quote.taxMinor,
      courierTipMinor: quote.courierTipMinor,
      currency: quote.currency,
      expiresAt: new Date(quote.expiresAt).toISOString(),
    },
    inputs: {
      address: inputs.address,
      pickupType: inputs.pickupType,
      orderDate: inputs.orderDate,
      orderTime: inputs.orderTime,
      orderValueMinor: inputs.orderValueMinor,
    },
  });
}

export type DeliveryCartFacts = {
  fulfilmentMethod: FulfilmentMethod;
  deliveryInfo: DeliveryInfo | null;
  deliveryQuote: DeliveryQuote | null;
  pickupType: PickupType;
  orderDate: string;
  orderTime: string;
  priced: { subTotal: Minor };
};

export function quoteInputsOf(cart: DeliveryCartFacts, address: DeliveryAddress): QuoteInputs {
  return { address, pickupType: cart.pickupType, orderDate: cart.orderDate, orderTime: cart.orderTime, orderValueMinor: cart.priced.subTotal };
}

/**
 * `none`: not a delivery cart, or no address/quote yet. `stale`: the address, order time or
 * subtotal changed since the quote. `expired`: the courier's validity ran out. `current`: payable.
 */
export type DeliveryQuoteState = "none" | "current" | "stale" | "expired";

export function deliveryQuoteState(cart: DeliveryCartFacts, now: Date): DeliveryQuoteState {
  if (cart.fulfilmentMethod !== "delivery" || !cart.deliveryInfo || !cart.deliveryQuote) return "none";
  const quote = cart.deliveryQuote;
  if (deliveryQuoteFingerprint(quote, quoteInputsOf(cart, cart.deliveryInfo.addressData)) !== quote.quoteFingerprint) return "stale";
  return Date.parse(quote.expiresAt) <= now.getTime() ? "expired" : "current";
}

/** A cart quote lasts CART_QUOTE_TTL_MS, and never longer than the courier quote it includes. */
export function cartQuoteExpiry(now: Date, deliveryQuote: Pick<DeliveryQuote, "expiresAt"> | null): Date {
  const own = now.getTime() + CART_QUOTE_TTL_MS;
  return new Date(deliveryQuote ? Math.min(own, Date.parse(deliveryQuote.expiresAt)) : own);
}

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in kilometres. */
export function haversineKm(from: { lat: number; lng: number }, to: { lat: number; lng: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.lat - from.lat);
  const dLng = radians(to.lng - from.lng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}
