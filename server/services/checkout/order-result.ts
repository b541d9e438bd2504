import { desc, eq } from "drizzle-orm";
import { carts, orders, paymentAttempts, paymentSessions, receipts } from "../../../db/schema";
import type { OrderResultView } from "../../schemas/checkout";
import type { RequestContext } from "../../app/request-context";
import { loadAuthorizedCart } from "../cart-access";
import { effectiveStatus } from "../cart-view";
import type { CartIds } from "../carts";
import { settleCart } from "./finalizer";
import { forgottenIsGone, retrieveOrNull } from "./processor-calls";
import { isPaymentProcessorError, type ProcessorIntent } from "../../integrations/payments/types";
import { logger } from "../../log";
import { toAppError } from "../../errors-map";
import { AUTHORIZATION_WINDOW_MS } from "../../domain/payments";
import { isAccepted } from "./kitchen";
import { issueReceiptCapability } from "./receipt-token";

/** How soon to poll again while a payment is pending. */
export const PAYMENT_POLL_MS = 1000;
const MAX_ORDER_POLL_MS = 5000;
const CHARGED_AFTER_EXPIRY = {
  code: "charged_without_order",
  message: "The card was charged after the cart expired, and no order was placed: contact the restaurant for a refund.",
};
/** An expired cart's held authorisation waits for the reconciliation job's next run: no use polling every second. */
const EXPIRED_HOLD_POLL_MS = 30_000;

/**
 * GET .../order-result. A payment left in flight (a crash, a slow processor, an answer that never
 * reached the client) is carried on by whoever looks: a LOCKED cart goes through the finalizer
 * before the result is read.
 */
export async function getOrderResult(ctx: RequestContext, ids: CartIds): Promise<OrderResultView> {
  const cart = await loadAuthorizedCart(ctx.deps.database.db, ctx, ids.locationId, ids.cartId);
  // An OPEN cart whose last payment failed may have been paid since with another card in the browser, its
  // report lost: the intent is read, as the webhook would read it, before an old decline is answered. (An
  // expired one's intent is only read, below: a poll never cancels.)
  const open = effectiveStatus(cart, ctx.deps.now()) === "OPEN";
  if (cart.status === "LOCKED" || (open && (await lastAttemptFailed(ctx, cart.id)))) await settleCart(ctx.deps, cart.id);
  const result = await readOrderResult(ctx, cart.id);
  Object.assign(ctx.response.headers, orderResultHeaders(result));
  return result;
}

/**
 * What the card holds on an expired cart's payment session intent: an authorisation the customer confirmed
 * in the browser that nobody settled while the cart could be paid (or one still being confirmed: 3-D Secure),
 * a capture made outside the service, or nothing. The reconciliation job cancels what is open (or names
 * it, if the processor refuses); a poll only reads, so that polls never send the processor a write. An
 * intent that cannot be read here (an outage, a refusal, another processor's) counts as held: the customer
 * is not told nothing is held before anyone knows. One still being confirmed (3-D Secure) holds nothing
 * yet: it counts as held only while the job still visits the cart to cancel it, so that it ends.
 */
async function expiredCartIntent(ctx: RequestContext, cart: { id: string; expiresAt: Date }): Promise<"held" | "charged" | "none"> {
  const [session] = await ctx.deps.database.db.select({ intentId: paymentSessions.intentId, processor: paymentSessions.processor }).from(paymentSessions).where(eq(paymentSessions.cartId, cart.id));
  if (!session?.intentId) return "none";
  let intent: ProcessorIntent | null;
  try {
    intent = await retrieveOrNull(ctx.deps, session.intentId);
  } catch (error) {
    if (!isPaymentProcessorError(error) && toAppError(error).code !== "DEPENDENCY_UNAVAILABLE") throw error;
    logger.warn({ cartId: cart.id, intentId: session.intentId, err: error }, "could not read an expired cart's intent");
    return "held";
  }
  if (intent === null) return forgottenIsGone(session.processor, ctx.deps.payments.name) ? "none" : "held";
  switch (intent.status) {
    case "succeeded":
      return "charged";
    case "requires_capture":
    case "processing":
      return "held";
    case "requires_action":
    case "requires_confirmation":
      return ctx.deps.now().getTime() - cart.expiresAt.getTime() < AUTHORIZATION_WINDOW_MS ? "held" : "none";
    case "requires_payment_method":
    case "canceled":
      return "none";
  }
}

async function lastAttemptFailed(ctx: RequestContext, cartId: string): Promise<boolean> {
  const [latest] = await ctx.deps.database.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId)).orderBy(desc(paymentAttempts.createdAt)).limit(1);
  return latest?.status === "failed";
}

/**
 * The outcome as the finalizer left it. `completed` once the order exists and the restaurant
 * accepted it; the receipt capability goes only to the cart's own X-Cart-Token (the caller checked it).
 */
export async function readOrderResult(ctx: RequestContext, cartId: string): Promise<OrderResultView> {
  const { db } = ctx.deps.database;
  const now = ctx.deps.now();
  const [placed] = await db.select({ order: orders, receipt: receipts }).from(orders).innerJoin(receipts, eq(receipts.orderId, orders.id)).where(eq(orders.cartId, cartId));
  if (placed) {
    if (!isAccepted(placed.order, now)) {
      const untilAccepted = placed.order.acceptedAt ? placed.order.acceptedAt.getTime() - now.getTime() : PAYMENT_POLL_MS;
      return { status: "order_pending", orderId: placed.order.id, pollAfterMs: Math.min(Math.max(untilAccepted, 250), MAX_ORDER_POLL_MS) };
    }
    const cartToken = ctx.credential.cartToken;
    const receiptToken = cartToken ? await issueReceiptCapability(db, placed.receipt, cartToken) : undefined;
    return { status: "completed", orderId: placed.order.id, receiptId: placed.receipt.id, ...(receiptToken ? { receiptToken } : {}) };
  }

  // A LOCKED cart is held for a payment in flight, or parked for review with money held (needs_review):
  // an earlier card's decline is history then, and answering it would send the customer to pay again.
  const [cart] = await db.select({ status: carts.status, expiresAt: carts.expiresAt }).from(carts).where(eq(carts.id, cartId));
  const attempts = await db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId)).orderBy(desc(paymentAttempts.createdAt)).limit(20);
  if (cart?.status === "LOCKED" || attempts.some((attempt) => attempt.status === "pending")) return { status: "payment_pending", pollAfterMs: PAYMENT_POLL_MS };
  // An expired cart's card is asked about before an earlier card's decline is answered: the customer is
  // not told the payment failed, or the cart went unpaid, while the card holds money for it.
  const expired = cart !== undefined && effectiveStatus(cart, now) === "EXPIRED";
  const held = expired ? await expiredCartIntent(ctx, { id: cartId, expiresAt: cart.expiresAt }) : "none";
  if (held === "held") return { status: "payment_pending", pollAfterMs: EXPIRED_HOLD_POLL_MS };
  if (held === "charged") return { status: "failed", failure: CHARGED_AFTER_EXPIRY };
  const failed = attempts.find((attempt) => attempt.status === "failed");
  if (failed) {
    return { status: "failed", failure: { code: failed.failureCode ?? "payment_failed", message: failed.failureMessage ?? "The payment failed." } };
  }
  if (expired) return { status: "failed", failure: { code: "cart_expired", message: "The cart expired before it was paid; start a new order." } };
  // Nothing reported yet: the customer may still be confirming in the browser.
  return { status: "payment_pending", pollAfterMs: PAYMENT_POLL_MS };
}

export function orderResultHeaders(result: OrderResultView): Record<string, string> {
  const headers: Record<string, string> = { "cache-control": "private, no-store" };
  if (result.pollAfterMs !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(result.pollAfterMs / 1000)));
  return headers;
}
