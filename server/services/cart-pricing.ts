import type { CartLine, PricedCart } from "../domain/cart-types";
import { fingerprint } from "../domain/fingerprint";
import { priceCart } from "../domain/pricing";
import type { carts } from "../../db/schema";
import type { LocationRow } from "./locations";

type CartRow = typeof carts.$inferSelect;

/** How long a priced cart may be paid against before it must be re-quoted. */
export const QUOTE_TTL_MS = 15 * 60_000;

export type PricedFields = Pick<CartRow, "priced" | "quoteFingerprint" | "quoteExpiresAt">;

/**
 * Prices the cart's stored lines with the location's current fees and the cart's choices, and
 * fingerprints the result. The fingerprint covers exactly what decides the amount charged (lines
 * in a canonical order, their catalog prices, choices and every total) and nothing else, so it
 * changes when and only when the customer would pay something different.
 */
export function repriceCart(cart: Pick<CartRow, "lines" | "discount" | "gratuity" | "courierTipMinor" | "fulfilmentMethod" | "currency" | "deliveryQuote">, location: Pick<LocationRow, "fees" | "fulfilment">, now: Date): PricedFields {
  const option = location.fulfilment[cart.fulfilmentMethod];
  const discount = cart.discount;
  const subtotal = cart.lines.reduce((sum, line) => sum + lineSubtotal(line), 0);
  const eligibleDiscount = discount && subtotal >= discount.minimumSubtotalMinor ? discount : null;
  const courierFee = readCourierQuote(cart.deliveryQuote);
  const priced = priceCart({
    lines: cart.lines,
    discount: eligibleDiscount === null ? null : eligibleDiscount.rate !== null ? { rate: eligibleDiscount.rate } : { amountMinor: eligibleDiscount.amountMinor ?? 0 },
    fees: location.fees,
    fulfilmentFee: { feeFixMinor: option?.feeFixMinor ?? 0, feeRate: option?.feeRate ?? "0" },
    gratuity: cart.gratuity,
    courier: courierFee,
    courierTipMinor: cart.fulfilmentMethod === "delivery" ? (cart.courierTipMinor ?? 0) : 0,
  });
  if (cart.lines.length === 0) return { priced, quoteFingerprint: null, quoteExpiresAt: null };
  return {
    priced,
    quoteFingerprint: quoteFingerprintOf(cart, priced),
    quoteExpiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
  };
}

export function quoteFingerprintOf(cart: Pick<CartRow, "lines" | "discount" | "gratuity" | "fulfilmentMethod" | "currency">, priced: PricedCart): string {
  const { lines: pricedLines, fees, ...totals } = priced;
  const unitPriceById = new Map(pricedLines.map((line) => [line.lineId, line.unitPriceMinor]));
  const lines = cart.lines
    .map((line) => ({
      productId: line.productId,
      quantity: line.quantity,
      unitPriceMinor: unitPriceById.get(line.id) ?? 0,
      selections: line.selections.map((s) => `${s.modifierGroupId}/${s.optionId}x${s.quantity}@${s.priceMinor}`).sort(),
      instructions: line.specialInstructions,
    }))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return fingerprint({ currency: cart.currency, fulfilmentMethod: cart.fulfilmentMethod, discount: cart.discount?.code ?? null, gratuity: cart.gratuity, lines, totals, fees });
}

function lineSubtotal(line: CartLine): number {
  return line.quantity * line.selections.reduce((sum, selection) => sum + selection.priceMinor * selection.quantity, line.basePriceMinor);
}

function readCourierQuote(quote: Record<string, unknown> | null): { feeMinor: number; taxMinor: number } | null {
  if (!quote) return null;
  const fee = quote.feeMinor;
  const tax = quote.taxMinor;
  return typeof fee === "number" && typeof tax === "number" ? { feeMinor: fee, taxMinor: tax } : null;
}
