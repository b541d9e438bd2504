import type { AppDeps } from "../app/deps";
import { validationError } from "../errors";
import { toAppError } from "../errors-map";
import { depsOrErrorResponse, errorResponse, logUnexpected } from "../http/error-response";
import { clientIp } from "../http/client-ip";
import { applyRateLimit } from "../http/rate-limit";
import { readBoundedBytes } from "../http/json-body";
import { newRequestId } from "../http/request-id";
import { isWebhookSignatureError } from "../integrations/payments/types";
import { logger } from "../log";
import { settleCart } from "../services/checkout/finalizer";
import { lostIntent, retrieveOrNull } from "../services/checkout/processor-calls";

/** Stripe's events are a few kilobytes; anything far larger is not one of them. */
const MAX_WEBHOOK_BYTES = 512 * 1024;

/**
 * POST /api/webhooks/stripe, outside the REST catch-all because the signature covers the raw bytes.
 *
 * The event only says which intent to look at: the intent is re-read from the processor and handed
 * to the finalizer, the same one the client's report and order-result polling use. Duplicates find
 * nothing left to do; an event arriving late or out of order cannot move anything backwards,
 * because nothing is decided from its payload. A bad signature is 400 and changes nothing, and counts
 * against the sender's address (429 with the rate-limit headers once past it); a failure on our side
 * is 5xx, so Stripe delivers the event again.
 */
export async function handleStripeWebhook(deps: AppDeps, request: Request, requestId: string = newRequestId()): Promise<Response> {
  const headers = { "X-Request-Id": requestId };
  try {
    // Bounded while it is read (a declared length past the limit is refused unread): the body is not
    // yet authenticated, and a sender must not make the process hold 300 MB to learn it is too large.
    const bytes = await readBoundedBytes(request, MAX_WEBHOOK_BYTES);
    const rawBody = new TextDecoder("utf-8").decode(bytes);
    let event;
    try {
      event = deps.payments.parseWebhookEvent(rawBody, request.headers.get("stripe-signature"), deps.now());
    } catch (error) {
      if (!isWebhookSignatureError(error)) throw error;
      // Forged or unsigned deliveries count against the sender's address (429 past the limit); the
      // processor's signed deliveries never do, so a busy shop's webhooks cannot be throttled.
      const limited = await applyRateLimit(deps, clientIp(request.headers, deps.env));
      return errorResponse(limited.error ?? validationError("The webhook signature is not valid"), requestId, { ...headers, ...limited.headers });
    }
    if (!event.type.startsWith("payment_intent.") || !event.intentId) return received(headers, false);

    const intent = (await retrieveOrNull(deps, event.intentId)) ?? lostIntent(event.intentId);
    const cartId = intent.metadata.cartId;
    if (!cartId) return received(headers, false);
    logger.info({ requestId, eventId: event.id, type: event.type, intentId: intent.id, status: intent.status }, "payment webhook");
    await settleCart(deps, cartId, { observed: intent });
    return received(headers, true);
  } catch (error) {
    logUnexpected(error, requestId);
    return errorResponse(toAppError(error), requestId, headers);
  }
}

function received(headers: Record<string, string>, handled: boolean): Response {
  return new Response(JSON.stringify({ received: true, handled }), { status: 200, headers: { ...headers, "Content-Type": "application/json", "Cache-Control": "no-store" } });
}

export function createStripeWebhookHandler(getDeps: () => Promise<AppDeps>) {
  return async function handle(request: Request): Promise<Response> {
    const requestId = newRequestId();
    const deps = await depsOrErrorResponse(getDeps, requestId);
    if (deps instanceof Response) return deps;
    return handleStripeWebhook(deps, request, requestId);
  };
}
