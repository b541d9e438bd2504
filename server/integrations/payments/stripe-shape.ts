import Stripe from "stripe";
import { intentStatuses, type IntentStatus, type ProcessorIntent } from "../../domain/payments";
import { WebhookSignatureError, type WebhookEvent } from "./types";

/**
 * The fields of a Stripe PaymentIntent the service reads. Both the Stripe SDK's objects and the
 * simulated ledger's are of this shape, so one mapping serves both processors.
 */
export type StripeIntentLike = {
  id: string;
  amount: number;
  currency: string;
  status: string;
  client_secret: string | null;
  metadata: Record<string, string> | null;
  payment_method: string | { id: string; card?: { brand: string; last4: string } | null } | null;
  last_payment_error: { code?: string; decline_code?: string; message?: string } | null;
};

function isIntentStatus(value: string): value is IntentStatus {
  return (intentStatuses as readonly string[]).includes(value);
}

export function toProcessorIntent(raw: StripeIntentLike): ProcessorIntent {
  if (!isIntentStatus(raw.status)) throw new Error(`unknown PaymentIntent status ${raw.status}`);
  const method = raw.payment_method;
  const card = typeof method === "object" && method?.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
  const error = raw.last_payment_error;
  return {
    id: raw.id,
    status: raw.status,
    amountMinor: raw.amount,
    currency: raw.currency,
    clientSecret: raw.client_secret ?? "",
    metadata: { ...(raw.metadata ?? {}) },
    card,
    lastError: error ? { code: error.decline_code ?? error.code ?? "payment_failed", message: error.message ?? "The payment failed." } : null,
  };
}

/**
 * Stripe's signature scheme (HMAC-SHA256 over "timestamp.body", 5-minute tolerance measured on the
 * service's clock), checked on the raw body before anything is parsed.
 */
export function verifyStripeWebhook(rawBody: string, signature: string | null, secret: string, receivedAt: Date): WebhookEvent {
  if (!signature) throw new WebhookSignatureError("missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, undefined, undefined, receivedAt.getTime());
  } catch (error) {
    throw new WebhookSignatureError("webhook signature verification failed", { cause: error });
  }
  const object = event.data.object as { object?: unknown; id?: unknown };
  const intentId = object.object === "payment_intent" && typeof object.id === "string" ? object.id : null;
  return { id: event.id, type: event.type, intentId };
}
