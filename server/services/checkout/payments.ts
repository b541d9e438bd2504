import { eq } from "drizzle-orm";
import { orders, paymentSessions } from "../../../db/schema";
import { intentTermsFor } from "../../domain/payments";
import { AppError } from "../../errors";
import type { OrderResultView } from "../../schemas/checkout";
import type { CommittingWrite } from "../operation-context";
import { loadAuthorizedCart, lockCart } from "../cart-access";
import { effectiveStatus } from "../cart-view";
import type { CartIds } from "../carts";
import { findLocation } from "../locations";
import { lockForAttempt, settleCart } from "./finalizer";
import { orderResultHeaders, readOrderResult } from "./order-result";
import { assertQuotePayable, assertQuoteSettleable, offerFactsOf } from "./quote-guard";

export type PaymentReport = { quoteFingerprint: string; paymentMethodId?: string | undefined };

/**
 * POST .../payments: the client says it confirmed the payment (in the browser with Stripe.js, or
 * here with a payment method id). Needs Idempotency-Key and the cart credential but not If-Match:
 * the precondition that matters is the quote being paid, `quoteFingerprint`, which a revision bump
 * that leaves the quote alone (its price and order time: a payment session, a re-quote) must not invalidate.
 *
 * Nothing moves before the quote is checked: a stale or expired quote or a blocking revalidation is
 * 409 REQUOTE_REQUIRED; so, for a payment the server confirms, is anything assertQuotePayable refuses
 * (a browser-confirmed one was held to that by its payment session, and is settled as the webhook
 * would settle it). Then, in one transaction, the cart is LOCKED (new revision) and a pending
 * attempt recorded; the finalizer does the rest and the answer is the order result. A retry, with
 * the same key or a new one, while an attempt is in flight or after it finished, resumes or reports
 * that attempt; it never starts a second payment.
 */
export async function reportPayment(ctx: CommittingWrite, ids: CartIds, report: PaymentReport): Promise<OrderResultView> {
  const cartId = await ctx.deps.database.db.transaction(async (tx) => {
    const authorized = await loadAuthorizedCart(tx, ctx, ids.locationId, ids.cartId);
    const cart = await lockCart(tx, authorized.id);
    if (!cart) throw new Error("cart vanished under its lock");
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.cartId, cart.id));
    // Already paid, or a payment is in flight: report it instead of starting another.
    if (order || cart.status === "LOCKED") return cart.id;
    const now = ctx.deps.now();
    const status = effectiveStatus(cart, now);
    if (status !== "OPEN") throw new AppError("CART_IMMUTABLE", `The cart is ${status} and can no longer be paid`, { details: { status } });
    const location = await findLocation(tx, cart.locationId, { allowSlug: false });
    // Confirmed on the server, the card is charged only if the quote is payable now; confirmed in the
    // browser, the money is already committed and the report settles it as the webhook would.
    if (report.paymentMethodId !== undefined) {
      assertQuotePayable(cart, now, { location, offer: await offerFactsOf(tx, location, cart), clientFingerprint: report.quoteFingerprint });
    } else {
      assertQuoteSettleable(cart, now, { location, clientFingerprint: report.quoteFingerprint });
    }
    const [session] = await tx.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.id));
    const terms = intentTermsFor({ ...cart, quoteFingerprint: report.quoteFingerprint });
    if (!session?.intentId || session.pending || session.quoteFingerprint !== report.quoteFingerprint || session.amountMinor !== terms.amountMinor) {
      throw new AppError("RESOURCE_CONFLICT", "There is no payment session for this quote: POST .../payment-session first, then confirm and report the payment", {
        details: { reason: "PAYMENT_SESSION_REQUIRED" },
      });
    }
    await lockForAttempt(tx, ctx.deps, cart, { intentId: session.intentId, source: "client", paymentMethodId: report.paymentMethodId });
    return cart.id;
  });

  await settleCart(ctx.deps, cartId);
  const result = await readOrderResult(ctx, cartId);
  return ctx.commit(() => {
    Object.assign(ctx.response.headers, orderResultHeaders(result));
    return Promise.resolve(result);
  });
}
