import type { Executor } from "../../../db/client";
import { and, eq } from "drizzle-orm";
import { discounts } from "../../../db/schema";
import type { AppliedDiscount } from "../../domain/cart-types";
import { checkoutBlockers, orderTimeBlocker, serviceDetailsBlocker, unservedLinesBlocker, withdrawnDiscountBlocker, type CheckoutBlocker, type CheckoutLocation, type MenuHoursByProduct } from "../../domain/checkout-readiness";
import { AppError } from "../../errors";
import type { CartRow } from "../cart-access";
import type { LocationRow } from "../locations";
import { loadCatalogFacts } from "../revalidation";

export type QuoteProblem = CheckoutBlocker["code"] | "QUOTE_MISMATCH";

/**
 * Why the cart's quote cannot be paid now; empty when it can. The readiness rules (quote expiry,
 * catalog and policy revisions, delivery quote, unresolved or unacknowledged revalidation) are the
 * domain's `checkoutBlockers`; checkout adds one of its own: the client must be paying for the
 * quote the cart holds now.
 */
export function quoteProblems(cart: CartRow, now: Date, context: { location: CheckoutLocation; clientFingerprint?: string | undefined }): QuoteProblem[] {
  const problems: QuoteProblem[] = checkoutBlockers(cart, context.location, now).map((blocker) => blocker.code);
  if (context.clientFingerprint !== undefined && context.clientFingerprint !== cart.quoteFingerprint) problems.unshift("QUOTE_MISMATCH");
  return problems;
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
 * The one check before money may move for a quote: 409 REQUOTE_REQUIRED, listing why, unless payable.
 * On top of the quote's own readiness, the order time must be servable now (orderTimeBlocker), every
 * line on a menu served at that time (unservedLinesBlocker), and the discount still offered as applied.
 */
export function assertQuotePayable(cart: CartRow, now: Date, context: { location: LocationRow; offer: OfferFacts; clientFingerprint?: string | undefined }): void {
  const closed = orderTimeBlocker(cart, context.location, now) ?? unservedLinesBlocker(cart, context.location, context.offer.menuHours, now);
  const withdrawn = withdrawnDiscountBlocker(cart.discount, cart.priced.discountTotal, context.offer.discount);
  const undeliverable = serviceDetailsBlocker(cart);
  const blockers = [...checkoutBlockers(cart, context.location, now), ...[closed, withdrawn, undeliverable].filter((blocker) => blocker !== undefined)];
  const mismatch = context.clientFingerprint !== undefined && context.clientFingerprint !== cart.quoteFingerprint;
  if (blockers.length === 0 && !mismatch) return;
  // Blockers with a remedy of their own (another time, the discount, where to serve) name it; validate-and-update fixes none of them.
  const ownRemedies = [closed, withdrawn, undeliverable];
  const message =
    !mismatch && blockers.every((blocker) => ownRemedies.includes(blocker))
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
