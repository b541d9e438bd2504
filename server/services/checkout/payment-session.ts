import { and, eq } from "drizzle-orm";
import { carts } from "../../../db/schema";
import { aboveProcessorMaximum, apiCurrencyCode, belowProcessorMinimum, intentTermsFor, PROCESSOR_MAXIMUM_MINOR, PROCESSOR_MINIMUM_MINOR, type IntentTerms, type ProcessorIntent } from "../../domain/payments";
import { formatMinor } from "../../domain/money";
import { AppError } from "../../errors";
import type { PaymentSessionView } from "../../schemas/checkout";
import type { CommittingCartMutation } from "../operation-context";
import { cartResponseHeaders, conflict, loadAuthorizedCart, type CartRow } from "../cart-access";
import { effectiveStatus } from "../cart-view";
import { idleExpiry, type CartIds } from "../carts";
import { processorCustomerOf } from "../customers/processor-customer";
import { findLocation, type LocationWithMerchant } from "../locations";
import { reconcileIntent } from "./intent-session";
import { assertQuotePayable, offerFactsOf, type OfferFacts } from "./quote-guard";

/**
 * POST .../payment-session: creates or recovers the cart's PaymentIntent for the current quote and
 * answers its client secret. A cart mutation in every respect (Idempotency-Key, credential, OPEN,
 * If-Match) and, to keep that rule uniform, it bumps the revision and answers the new ETag, although
 * the amount the customer pays does not change. `quote.revision` is the quoteFingerprint: it is what
 * POST .../payments must repeat, and it survives revision bumps that leave the quote (price and order time) alone.
 *
 * The processor is called between transactions (./intent-session.ts); the revision moves only once
 * the intent carries the quote, with a compare-and-set on the revision the client sent.
 */
export async function createPaymentSession(ctx: CommittingCartMutation, ids: CartIds): Promise<PaymentSessionView> {
  const { expectedRevision } = ctx;
  const { cart, terms } = await ctx.deps.database.db.transaction(async (tx) => {
    const cart = await loadAuthorizedCart(tx, ctx, ids.locationId, ids.cartId);
    const now = ctx.deps.now();
    requireOpen(cart, now);
    if (cart.revision !== expectedRevision) throw conflict(cart.revision);
    const location = await findLocation(tx, cart.locationId, { allowSlug: false });
    return { cart, terms: payableTerms(cart, location, await offerFactsOf(tx, location, cart), now) };
  });

  // A signed-in customer's card is saved to their processor customer for next time.
  const processorCustomerId = cart.customerId ? await processorCustomerOf(ctx.deps, cart.customerId) : undefined;
  const intentTerms = processorCustomerId ? { ...terms, processorCustomerId } : terms;
  const intent = await reconcileIntent(ctx.deps, cart.id, intentTerms);

  return ctx.commit(async (tx) => {
    const now = ctx.deps.now();
    const [updated] = await tx
      .update(carts)
      .set({ revision: expectedRevision + 1, updatedAt: now, expiresAt: idleExpiry(ctx, now) })
      .where(
        and(
          eq(carts.id, cart.id),
          eq(carts.revision, expectedRevision),
          eq(carts.status, "OPEN"),
          eq(carts.quoteFingerprint, terms.metadata.quoteFingerprint),
        ),
      )
      .returning({ revision: carts.revision });
    if (!updated) {
      const [latest] = await tx.select({ revision: carts.revision }).from(carts).where(eq(carts.id, cart.id));
      throw conflict(latest?.revision ?? expectedRevision);
    }
    Object.assign(ctx.response.headers, cartResponseHeaders(updated.revision));
    return sessionView(intent, cart, terms);
  });
}

function requireOpen(cart: CartRow, now: Date): void {
  const status = effectiveStatus(cart, now);
  if (status !== "OPEN") throw new AppError("CART_IMMUTABLE", `The cart is ${status} and can no longer be changed`, { details: { status } });
}

/** The terms the intent must carry, once the quote is known to be payable and chargeable. */
function payableTerms(cart: CartRow, location: LocationWithMerchant, offer: OfferFacts, now: Date): IntentTerms {
  const fingerprint = cart.quoteFingerprint;
  if (cart.lines.length === 0 || fingerprint === null) {
    throw new AppError("RESOURCE_CONFLICT", "The cart is empty: add items before paying", { details: { reason: "CART_EMPTY" } });
  }
  assertQuotePayable(cart, now, { location, offer });
  const total = cart.priced.orderTotalWithServiceFee;
  if (belowProcessorMinimum(total, cart.currency)) {
    const minimum = PROCESSOR_MINIMUM_MINOR[cart.currency];
    throw new AppError(
      "RESOURCE_CONFLICT",
      `The order total ${formatMinor(total, cart.currency)} is below the card processor's minimum charge of ${formatMinor(minimum, cart.currency)}; add items to pay by card`,
      { details: { reason: "BELOW_PROCESSOR_MINIMUM", totalAmount: total, minimumAmount: minimum, currency: apiCurrencyCode(cart.currency) } },
    );
  }
  if (aboveProcessorMaximum(total)) {
    throw new AppError(
      "RESOURCE_CONFLICT",
      `The order total ${formatMinor(total, cart.currency)} is above the card processor's largest charge of ${formatMinor(PROCESSOR_MAXIMUM_MINOR, cart.currency)}; split the order`,
      { details: { reason: "ABOVE_PROCESSOR_MAXIMUM", totalAmount: total, maximumAmount: PROCESSOR_MAXIMUM_MINOR, currency: apiCurrencyCode(cart.currency) } },
    );
  }
  return intentTermsFor({ ...cart, quoteFingerprint: fingerprint });
}

function sessionView(intent: ProcessorIntent, cart: CartRow, terms: IntentTerms): PaymentSessionView {
  const currency = apiCurrencyCode(cart.currency);
  return {
    provider: "CARDPROCESSOR",
    clientSecret: intent.clientSecret,
    quote: {
      revision: terms.metadata.quoteFingerprint,
      total: { amount: terms.amountMinor, currency },
      // Every gratuity in the charge: the waiter tip and, for delivery, the courier tip.
      tip: { amount: cart.priced.waiterTipTotal + cart.priced.courierTipTotal, currency },
    },
  };
}
