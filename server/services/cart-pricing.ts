import type { CartLine, PricedCart } from "../domain/cart-types";
import { CART_QUOTE_TTL_MS, cartQuoteExpiry, type DeliveryQuote } from "../domain/delivery";
import { CanonicalText, fingerprint } from "../domain/fingerprint";
import { amountOverflow, overflowedTotal } from "../domain/money";
import { priceCart } from "../domain/pricing";
import { pricedLinesInOrder } from "../domain/priced-lines";
import type { CartWithLines } from "../../db/schema";
import type { LocationRow } from "./locations";
import { quoteLinesText } from "./quote-lines";

type CartRow = CartWithLines;

/** How long a priced cart may be paid against before it must be re-quoted. */
export const QUOTE_TTL_MS = CART_QUOTE_TTL_MS;

export type PricedFields = Pick<CartRow, "priced" | "quoteFingerprint" | "quoteExpiresAt">;

/**
 * Prices the cart's stored lines with the location's current fees and the cart's choices, and
 * fingerprints the result. The quote expires after QUOTE_TTL_MS, or with the courier quote of a
 * delivery cart if that comes first.
 *
 * A total past 2^53 - 1 minor units is a 400 (domain/money.ts amountOverflow); `requestField` names
 * the request's field that made it so (a quantity, a tip), else the total itself is named. Nothing
 * unpriceable is ever stored, since every write prices the cart first.
 */
export function repriceCart(
  cart: Pick<CartRow, "lines" | "discount" | "gratuity" | "courierTipMinor" | "fulfilmentMethod" | "currency" | "deliveryQuote" | "pickupType" | "orderDate" | "orderTime">,
  location: Pick<LocationRow, "fees" | "fulfilment" | "gratuity">,
  now: Date,
  requestField?: string,
): PricedFields {
  try {
    return priceWithLocation(cart, location, now);
  } catch (error) {
    const total = overflowedTotal(error);
    if (total !== undefined && requestField !== undefined) throw amountOverflow(requestField, total);
    throw error;
  }
}

function priceWithLocation(cart: Parameters<typeof repriceCart>[0], location: Parameters<typeof repriceCart>[1], now: Date): PricedFields {
  const option = location.fulfilment[cart.fulfilmentMethod];
  const discount = cart.discount;
  const subtotal = cart.lines.reduce((sum, line) => sum + lineSubtotal(line), 0);
  const eligibleDiscount = discount && subtotal >= discount.minimumSubtotalMinor ? discount : null;
  const courierQuote = cart.fulfilmentMethod === "delivery" ? cart.deliveryQuote : null;
  const courierFee = courierQuote ? { feeMinor: courierQuote.feeMinor, taxMinor: courierQuote.taxMinor } : null;
  const priced = priceCart({
    lines: cart.lines,
    discount: eligibleDiscount === null ? null : eligibleDiscount.rate !== null ? { rate: eligibleDiscount.rate } : { amountMinor: eligibleDiscount.amountMinor ?? 0 },
    fees: location.fees,
    fulfilmentFee: { feeFixMinor: option?.feeFixMinor ?? 0, feeRate: option?.feeRate ?? "0" },
    gratuity: cart.gratuity,
    gratuityMaxRate: location.gratuity.maxRate,
    courier: courierFee,
    courierTipMinor: cart.fulfilmentMethod === "delivery" ? (cart.courierTipMinor ?? 0) : 0,
  });
  if (cart.lines.length === 0) return { priced, quoteFingerprint: null, quoteExpiresAt: null };
  return {
    priced,
    quoteFingerprint: quoteFingerprintOf({ ...cart, deliveryQuote: courierQuote }, priced),
    quoteExpiresAt: cartQuoteExpiry(now, courierQuote),
  };
}

/**
 * The fingerprint covers exactly what the customer pays and pays for: the lines as a multiset
 * (product, options, quantity, unit price), every customer-facing total, the courier's fee, tax
 * and tip, and when the order is for (ASAP, or the LATER date and time). It leaves out what does
 * not change the charge or the order's time: line order, line ids, special instructions,
 * merchant-borne fees (enterprise, processing), how a discount or gratuity was chosen when it comes
 * to the same amount, where a table-side order is served, and when the quote expires.
 *
 * The order time is in it because checkout checks it (servable, every line's menu served then) at
 * the payment session, and a browser-confirmed payment is settled on the intent's fingerprint
 * alone: a time changed after the session must leave that intent matching no quote, so that no
 * path captures it for a time nobody checked.
 */
export function quoteFingerprintOf(
  cart: Pick<CartRow, "lines" | "fulfilmentMethod" | "currency" | "pickupType" | "orderDate" | "orderTime"> & { deliveryQuote: Pick<DeliveryQuote, "feeMinor" | "taxMinor" | "courierTipMinor"> | null },
  priced: PricedCart,
): string {
  const pricedLines = pricedLinesInOrder(cart.lines, priced);
  const unitPrices = cart.lines.map((_, index) => pricedLines[index]?.unitPriceMinor ?? 0);
  const courier = cart.deliveryQuote
    ? { feeMinor: cart.deliveryQuote.feeMinor, taxMinor: cart.deliveryQuote.taxMinor, tipMinor: cart.deliveryQuote.courierTipMinor }
    : null;
  return fingerprint({
    currency: cart.currency,
    fulfilmentMethod: cart.fulfilmentMethod,
    orderTime: cart.pickupType === "LATER" ? `LATER ${cart.orderDate} ${cart.orderTime}` : "ASAP",
    // The lines as a multiset: their texts sorted (./quote-lines.ts).
    lines: new CanonicalText(quoteLinesText(cart.lines, unitPrices)),
    courier,
    totals: {
      subTotalWithoutDiscount: priced.subTotalWithoutDiscount,
      discountTotal: priced.discountTotal,
      subTotal: priced.subTotal,
      waiterTipTotal: priced.waiterTipTotal,
      courierTipTotal: priced.courierTipTotal,
      taxTotal: priced.taxTotal,
      serviceFeeTotal: priced.serviceFeeTotal,
      fulfillmentMethodFeeTotal: priced.fulfillmentMethodFeeTotal,
      orderTotal: priced.orderTotal,
      orderTotalWithServiceFee: priced.orderTotalWithServiceFee,
    },
  });
}

function lineSubtotal(line: CartLine): number {
  return line.quantity * line.selections.reduce((sum, selection) => sum + selection.priceMinor * selection.quantity, line.basePriceMinor);
}
