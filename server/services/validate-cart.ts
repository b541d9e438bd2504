import { cartQuoteExpiry, deliveryQuoteState, type DeliveryQuote } from "../domain/delivery";
import { acknowledgeRevalidation, type DeliveryFact, type QuoteFact } from "../domain/revalidation";
import { AppError } from "../errors";
import type { CartView } from "../schemas/cart";
import type { RequestContext } from "../app/request-context";
import type { CartRow } from "./cart-access";
import { repriceCart } from "./cart-pricing";
import { preflightCartMutation } from "./cart-preflight";
import type { CommittingCartMutation } from "./operation-context";
import { mutateCart, type CartIds } from "./carts";
import { requestCourierQuote, type CourierOutcome } from "./delivery";
import type { LocationRow } from "./locations";
import { deliveryFactOf, loadCatalogFacts, projectCart, revalidationPatch } from "./revalidation";

/** `{}` checks; `{ accept: true, quoteFingerprint }` checks and accepts what the customer reviewed. */
export type ValidateInput = { accept?: boolean | undefined; quoteFingerprint?: string | undefined };

/** A courier quote this close to expiry is renewed rather than handed to a customer about to pay. */
const RENEW_MARGIN_MS = 60_000;

/**
 * PUT .../validate-and-update: re-checks every line against the current catalog, the commerce
 * policy, the schedule at the cart's order time, fulfilment availability and the quotes; applies
 * what can be applied (prices, reduced quantities, fees, a renewed courier quote), re-prices, and
 * records the change set. The courier is asked before the transaction opens, for the cart as the
 * check will leave it.
 */
export async function validateAndUpdate(ctx: CommittingCartMutation, ids: CartIds, input: ValidateInput): Promise<CartView> {
  const preflight = await preflightCartMutation(ctx, ids);
  const courier = await renewCourierQuoteIfNeeded(ctx, preflight.cart, preflight.location);

  return ctx.commit((transaction) => mutateCart({ ...ctx, tx: transaction }, ids, async ({ tx, cart, location, now }) => {
    const facts = await loadCatalogFacts(tx, location, cart.lines.map((line) => line.productId));
    let deliveryQuote = cart.deliveryQuote;
    let delivery = deliveryFactOf(projectCart(cart, facts, location, now), now);
    if (courier?.ok) {
      deliveryQuote = courier.quote;
      // The quote was requested for the cart as projected outside; if that moved in between, it is stale already.
      const renewed = deliveryFactOf(projectCart({ ...cart, deliveryQuote }, facts, location, now), now);
      delivery = renewed.state === "current" && cart.deliveryQuote ? { state: "renewed", before: cart.deliveryQuote, after: deliveryQuote } : renewed;
    } else if (courier && cart.deliveryInfo) {
      delivery = { state: "rejected", addressString: cart.deliveryInfo.addressString, message: courier.rejection.message };
    }
    const next: CartRow = { ...cart, deliveryQuote };
    const patch = { deliveryQuote, ...revalidationPatch(next, facts, { now, nextCartRevision: cart.revision + 1, quote: cartQuoteFact(cart, deliveryQuote, delivery, now), delivery }) };
    if (!input.accept) return patch;
    const fingerprint = repriceCart({ ...next, lines: patch.lines }, location, now).quoteFingerprint;
    if (fingerprint === null || fingerprint !== input.quoteFingerprint) {
      throw new AppError("REQUOTE_REQUIRED", "The cart's quote is not the one you accepted: review the cart again and accept its current quoteFingerprint", {
        details: { acceptedQuoteFingerprint: input.quoteFingerprint ?? null, currentQuoteFingerprint: fingerprint },
      });
    }
    return { ...patch, catalogRevalidation: acknowledgeRevalidation(patch.catalogRevalidation, now) };
  }));
}

/** Asks the courier again when the delivery cart's quote is missing, stale, expired or about to expire. */
async function renewCourierQuoteIfNeeded(ctx: RequestContext, cart: CartRow, location: LocationRow): Promise<CourierOutcome | null> {
  if (cart.fulfilmentMethod !== "delivery" || !cart.deliveryInfo) return null;
  const now = ctx.deps.now();
  const facts = await loadCatalogFacts(ctx.deps.database.db, location, cart.lines.map((line) => line.productId));
  const projected = projectCart(cart, facts, location, now);
  const state = deliveryQuoteState(projected, now);
  if (state === "current" && !expiresSoon(projected.deliveryQuote, now)) return null;
  return requestCourierQuote(ctx, location, projected, cart.deliveryInfo, now);
}

function expiresSoon(quote: DeliveryQuote | null, now: Date): boolean {
  return quote !== null && Date.parse(quote.expiresAt) - now.getTime() < RENEW_MARGIN_MS;
}

/** The cart's own quote is renewed by any check; it is reported only when it had run out and the courier quote says nothing. */
function cartQuoteFact(cart: CartRow, deliveryQuote: DeliveryQuote | null, delivery: DeliveryFact, now: Date): QuoteFact {
  if (delivery.state !== "none" && delivery.state !== "current") return { state: "current" };
  if (cart.lines.length === 0 || !cart.quoteExpiresAt || cart.quoteExpiresAt.getTime() > now.getTime()) return { state: "current" };
  const courierQuote = cart.fulfilmentMethod === "delivery" ? deliveryQuote : null;
  return { state: "renewed", expiredAt: cart.quoteExpiresAt.toISOString(), expiresAt: cartQuoteExpiry(now, courierQuote).toISOString() };
}
