import type { Executor } from "../../../db/client";
import { and, eq } from "drizzle-orm";
import { discounts } from "../../../db/schema";
import type { AppliedDiscount } from "../../domain/cart-types";
import { checkoutBlockers, orderTimeBlocker, serviceDetailsBlocker, unservedLinesBlocker, withdrawnDiscountBlocker, type CheckoutBlocker, type CheckoutLocation, type MenuHoursByProduct } from "../../domain/checkout-readiness";
import { AppError } from "../../errors";
import type { CartRow } from "../cart-access";
import type { LocationRow } from "../locations";
import { loadCatalogFacts } from "../revalidation";

/**
 * What must still hold to settle a payment the customer confirmed in the browser: the quote's own
 * readiness (quote expiry, catalog and policy revisions, delivery quote, unresolved or
 * unacknowledged revalidation), the domain's `checkoutBlockers`. The client's report
 * (assertQuoteSettleable) and the webhook's settlement (finalizer.ts) both apply exactly this.
 */
export function settlementBlockers(cart: CartRow, location: CheckoutLocation, now: Date): CheckoutBlocker[] {
  return checkoutBlockers(cart, location, now);
}

/** What the payability check reads besides the cart and its location: its lines' menu hours, and its discount code as offered now. */
export type OfferFacts = { menuHours: MenuHoursByProduct; discount: (AppliedDiscount & { active: boolean }) | undefined };

export async function offerFactsOf(executor: Executor, location: LocationRow, cart: CartRow): Promise<OfferFacts> {
  const facts = await loadCatalogFacts(executor, location, cart.lines.map((line) => line.productId));
  const menuHours = new Map([...facts.products].map(([id, product]) => [id, product.menuAvailability]));
  if (!cart.discount) return { menuHours, discount: undefined };
  const [discount] = await executor
    .select({ code: discounts.code, rate: discounts.rate, amountMinor: discounts.amountMinor, minimumSubtotalMinor: discounts.minimumSubtotalMinor, active: discounts.active })
    .from(discounts)
    .where(and(eq(discounts.locationId, location.id), eq(discounts.code, cart.discount.code)));
  return { menuHours, discount };
}

/**
 * The one check before the customer's money is committed: 409 REQUOTE_REQUIRED, listing why, unless
 * payable. On top of the quote's own readiness, the order time must be servable now
 * (orderTimeBlocker), every line on a menu served at that time (unservedLinesBlocker), the discount
 * still offered as applied, and a table or room known where the method needs one. It runs where the
 * service can still stop the card: the payment session (before the browser can confirm) and a
 * payment the server confirms itself (with a payment method).
 */
export function assertQuotePayable(cart: CartRow, now: Date, context: { location: LocationRow; offer: OfferFacts; clientFingerprint?: string | undefined }): void {
  const { blockers, ownRemedies } = payabilityBlockers(cart, now, context);
  refuseUnless(cart, blockers, { clientFingerprint: context.clientFingerprint, ownRemedies });
}

/** Why the quote cannot be paid now (none: payable), as assertQuotePayable refuses it; `ownRemedies`, those that name their own remedy. */
export function payabilityBlockers(cart: CartRow, now: Date, context: { location: LocationRow; offer: OfferFacts }): { blockers: CheckoutBlocker[]; ownRemedies: (CheckoutBlocker | undefined)[] } {
  const closed = orderTimeBlocker(cart, context.location, now) ?? unservedLinesBlocker(cart, context.location, context.offer.menuHours, now);
  const withdrawn = withdrawnDiscountBlocker(cart.discount, cart.priced.discountTotal, context.offer.discount);
  const undeliverable = serviceDetailsBlocker(cart);
  return {
    blockers: [...checkoutBlockers(cart, context.location, now), ...[closed, withdrawn, undeliverable].filter((blocker) => blocker !== undefined)],
    ownRemedies: [closed, withdrawn, undeliverable],
  };
}

/**
 * The check once the customer has confirmed the card in the browser: only settlementBlockers, as the
 * webhook's settlement checks them. The order time, menus, discount and
 * service details were checked when the payment session was made; a payment the customer confirmed
 * in the minutes since is taken as they made it, by whichever of the report, a poll or the webhook
 * settles it first, so that the client is never told 409 for an order the webhook then places.
 */
export function assertQuoteSettleable(cart: CartRow, now: Date, context: { location: LocationRow; clientFingerprint: string }): void {
  refuseUnless(cart, settlementBlockers(cart, context.location, now), { clientFingerprint: context.clientFingerprint, ownRemedies: [] });
}

function refuseUnless(cart: CartRow, blockers: CheckoutBlocker[], context: { clientFingerprint: string | undefined; ownRemedies: (CheckoutBlocker | undefined)[] }): void {
  const mismatch = context.clientFingerprint !== undefined && context.clientFingerprint !== cart.quoteFingerprint;
  if (blockers.length === 0 && !mismatch) return;
  // Blockers with a remedy of their own (another time, the discount, where to serve) name it; validate-and-update fixes none of them.
  const message =
    !mismatch && blockers.every((blocker) => context.ownRemedies.includes(blocker))
      ? blockers.map((blocker) => blocker.message).join(". ")
      : "The cart's quote can no longer be paid: re-read the cart, call PUT .../validate-and-update, then start the payment again";
  throw new AppError("REQUOTE_REQUIRED", message, {
    details: {
      reasons: [...(mismatch ? ["QUOTE_MISMATCH"] : []), ...blockers.map((blocker) => blocker.code)],
      blockers,
      quoteFingerprint: cart.quoteFingerprint,
      quoteExpiresAt: cart.quoteExpiresAt?.toISOString() ?? null,
    },
  });
}
