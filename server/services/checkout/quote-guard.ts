import type { Executor } from "../../../db/client";
import { checkoutBlockers, orderTimeBlocker, unservedLinesBlocker, type CheckoutBlocker, type CheckoutLocation, type MenuHoursByProduct } from "../../domain/checkout-readiness";
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

/** The menu hours of the cart's products, for the check that each line is served at the order's time. */
export async function menuHoursOf(executor: Executor, location: LocationRow, cart: CartRow): Promise<MenuHoursByProduct> {
  const facts = await loadCatalogFacts(executor, location, cart.lines.map((line) => line.productId));
  return new Map([...facts.products].map(([id, product]) => [id, product.menuAvailability]));
}

/**
 * The one check before money may move for a quote: 409 REQUOTE_REQUIRED, listing why, unless payable.
 * On top of the quote's own readiness, the order time must be servable now (orderTimeBlocker), and
 * every line on a menu served at that time (unservedLinesBlocker).
 */
export function assertQuotePayable(cart: CartRow, now: Date, context: { location: LocationRow; menuHours: MenuHoursByProduct; clientFingerprint?: string | undefined }): void {
  const closed = orderTimeBlocker(cart, context.location, now) ?? unservedLinesBlocker(cart, context.location, context.menuHours, now);
  const blockers = [...checkoutBlockers(cart, context.location, now), ...(closed ? [closed] : [])];
  const mismatch = context.clientFingerprint !== undefined && context.clientFingerprint !== cart.quoteFingerprint;
  if (blockers.length === 0 && !mismatch) return;
  const message = closed && blockers.length === 1 && !mismatch ? closed.message : "The cart's quote can no longer be paid: re-read the cart, call PUT .../validate-and-update, then start the payment again";
  throw new AppError("REQUOTE_REQUIRED", message, {
    details: {
      reasons: [...(mismatch ? ["QUOTE_MISMATCH"] : []), ...blockers.map((blocker) => blocker.code)],
      blockers,
      quoteFingerprint: cart.quoteFingerprint,
      quoteExpiresAt: cart.quoteExpiresAt?.toISOString() ?? null,
    },
  });
}
