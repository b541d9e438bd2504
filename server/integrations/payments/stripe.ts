import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { toProcessorIntent, verifyStripeWebhook } from "./stripe-shape";
import { isPaymentProcessorError, PaymentProcessorError, type PaymentProcessor, type ProcessorIntent } from "./types";

export type StripeProcessorOptions = {
  secretKey: string;
  webhookSecret: string;
  /** e.g. http://127.0.0.1:12111 for a local fake; unset means api.stripe.com. */
  apiBase?: string | undefined;
  timeoutMs: number;
  maxNetworkRetries: number;
};

/**
 * PaymentIntents on Stripe through the official SDK. Every write carries our own idempotency key
 * (the SDK would otherwise invent a random one per call, and a retry after a crash would create a
 * second intent), the timeout is ours rather than the SDK's 80 s, and intents use manual capture.
 */
export function createStripeProcessor(options: StripeProcessorOptions): PaymentProcessor & { client: Stripe } {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  const client = new Stripe(options.secretKey, {
    timeout: options.timeoutMs,
    maxNetworkRetries: options.maxNetworkRetries,
    telemetry: false,
    appInfo: { name: "storefront-ordering-service" },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
          protocol: base.protocol === "http:" ? ("http" as const) : ("https" as const),
        }
      : {}),
  });
  const expand = ["payment_method"];

  async function call(operation: () => Promise<Stripe.PaymentIntent>): Promise<ProcessorIntent> {
    try {
      return toProcessorIntent(await operation());
    } catch (error) {
      // A decline comes back as a card error carrying the intent: an answer, not a failure.
      if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) return toProcessorIntent(error.payment_intent);
      throw translate(error);
    }
  }

  return {
    name: "stripe",
    client,
    createOrUpdateIntent: ({ intentId, terms, idempotencyKey }) =>
      call(() =>
        intentId === null
          ? client.paymentIntents.create(
              {
                amount: terms.amountMinor,
                currency: terms.currency,
                metadata: terms.metadata,
                description: terms.description,
                capture_method: "manual",
                allowed_payment_method_types: ["card"],
                ...(terms.processorCustomerId ? { customer: terms.processorCustomerId, setup_future_usage: "on_session" as const } : {}),
                expand,
              },
              { idempotencyKey },
            )
          : client.paymentIntents.update(
              intentId,
              { amount: terms.amountMinor, currency: terms.currency, metadata: terms.metadata, description: terms.description, expand },
              { idempotencyKey },
            ),
      ),
    retrieveIntent: (intentId) => call(() => client.paymentIntents.retrieve(intentId, { expand })),
    confirmIntent: ({ intentId, paymentMethodId, idempotencyKey }) =>
      call(() => client.paymentIntents.confirm(intentId, { payment_method: paymentMethodId, expand }, { idempotencyKey })),
    captureIntent: ({ intentId, idempotencyKey }) => call(() => client.paymentIntents.capture(intentId, { expand }, { idempotencyKey })),
    cancelIntent: ({ intentId, idempotencyKey }) => call(() => client.paymentIntents.cancel(intentId, { expand }, { idempotencyKey })),
    parseWebhookEvent: (rawBody, signature, receivedAt) => verifyStripeWebhook(rawBody, signature, options.webhookSecret, receivedAt),
    cards: {
      ensureCustomer: async ({ customerId, email, known, idempotencyKey }) => {
        if (known) return known;
        const created = await translated(() => client.customers.create({ ...(email ? { email } : {}), metadata: { customerId } }, { idempotencyKey }));
        return created.id;
      },
      listCards: async (processorCustomerId) => {
        const page = await translated(() => client.paymentMethods.list({ customer: processorCustomerId, type: "card", limit: 100 }));
        return page.data.flatMap((method) =>
          method.card ? [{ id: method.id, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year }] : [],
        );
      },
      detachCard: async ({ processorCustomerId, paymentMethodId }) => {
        let method: Stripe.PaymentMethod;
        try {
          method = await translated(() => client.paymentMethods.retrieve(paymentMethodId));
        } catch (error) {
          if (isPaymentProcessorError(error) && (error.kind === "not_found" || error.kind === "invalid_request")) return false;
          throw error;
        }
        const owner = typeof method.customer === "string" ? method.customer : method.customer?.id;
        if (owner !== processorCustomerId) return false;
        // A key of its own for each try: detaching is safe to repeat (a detached card is not the
        // customer's any more, above), and a server error Stripe keeps under a fixed key would refuse
        // the customer's removal of the card for a day.
        await translated(() => client.paymentMethods.detach(paymentMethodId, {}, { idempotencyKey: `${paymentMethodId}:detach:${randomUUID()}` }));
        return true;
      },
    },
  };
}

async function translated<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw translate(error);
  }
}

function translate(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const keptUnderKey = isKeptServerError(error);
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError || keptUnderKey) {
    return new PaymentProcessorError("unavailable", error.message, { cause: error, keptUnderKey });
  }
  if (error.code === "payment_intent_unexpected_state") return new PaymentProcessorError("invalid_state", error.message, { cause: error });
  if (error.code === "resource_missing" && error.statusCode === 404) return new PaymentProcessorError("not_found", error.message, { cause: error });
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return new PaymentProcessorError("invalid_request", error.message, { cause: error });
  return new PaymentProcessorError("rejected", error.message, { cause: error });
}

/**
 * A server error Stripe keeps under the request's idempotency key: once the endpoint began to run,
 * Stripe answers its first outcome, a 5xx included, to every request with that key for 24 hours
 * (docs.stripe.com/api/idempotent_requests). Known by what Stripe says of it: a replay carries
 * `Idempotent-Replayed: true`, and a kept 5xx `Stripe-Should-Retry: false` (a retry would only replay
 * it; stripe-node's RequestSender reads it so). A 5xx from in front of the endpoint says neither and
 * keeps nothing: the same key may still succeed, or be succeeding for another caller right now.
 */
function isKeptServerError(error: InstanceType<typeof Stripe.errors.StripeError>): boolean {
  if ((error.statusCode ?? 0) < 500) return false;
  const header = (name: string) => Object.entries(error.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  return header("idempotent-replayed") === "true" || header("stripe-should-retry") === "false";
}
