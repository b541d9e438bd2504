import { PaymentIntentLedger, isLedgerError, type LedgerIntent } from "./ledger";
import { toProcessorIntent, verifyStripeWebhook } from "./stripe-shape";
import { PaymentProcessorError, type PaymentProcessor, type ProcessorIntent } from "./types";

/**
 * The embedded default processor: Stripe's PaymentIntents modelled in memory (./ledger.ts), with
 * Stripe's test payment methods (pm_card_visa authorizes, pm_card_chargeDeclined is declined,
 * pm_card_authenticationRequired needs an action a server-side confirmation cannot complete).
 * Nothing leaves the process and no real card is involved. Intents live as long as the process:
 * after a restart an unknown intent reads as not found, and the service starts a new one.
 */
export function createSimulatedProcessor(options: { webhookSecret: string; ledger?: PaymentIntentLedger }): PaymentProcessor & { ledger: PaymentIntentLedger } {
  const ledger = options.ledger ?? new PaymentIntentLedger();

  /** The ledger's errors as the processor errors the service understands (the same mapping as Stripe's). */
  function settle<T>(operation: () => T): Promise<T> {
    try {
      return Promise.resolve(operation());
    } catch (error) {
      if (isLedgerError(error)) {
        const kind = error.status === 404 ? "not_found" : error.body.type === "idempotency_error" ? "rejected" : "invalid_request";
        return Promise.reject(new PaymentProcessorError(kind, error.message, { cause: error }));
      }
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function run(operation: () => LedgerIntent): Promise<ProcessorIntent> {
    try {
      return Promise.resolve(toProcessorIntent(operation()));
    } catch (error) {
      if (isLedgerError(error)) {
        // A decline is an answer about the intent, not a failure of the call.
        if (error.status === 402 && error.body.payment_intent) return Promise.resolve(toProcessorIntent(error.body.payment_intent));
        if (error.status === 404) return Promise.reject(new PaymentProcessorError("not_found", error.message, { cause: error }));
        if (error.body.code === "payment_intent_unexpected_state") return Promise.reject(new PaymentProcessorError("invalid_state", error.message, { cause: error }));
        const kind = error.body.type === "idempotency_error" ? "rejected" : "invalid_request";
        return Promise.reject(new PaymentProcessorError(kind, error.message, { cause: error }));
      }
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  return {
    name: "simulated",
    ledger,
    createOrUpdateIntent: ({ intentId, terms, idempotencyKey }) =>
      run(() =>
        intentId === null
          ? ledger.create(
              {
                amount: terms.amountMinor,
                currency: terms.currency,
                metadata: terms.metadata,
                description: terms.description,
                capture_method: "manual",
                ...(terms.processorCustomerId ? { customer: terms.processorCustomerId, setup_future_usage: "on_session" as const } : {}),
              },
              idempotencyKey,
            )
          : ledger.update(intentId, { amount: terms.amountMinor, currency: terms.currency, metadata: terms.metadata, description: terms.description }, idempotencyKey),
      ),
    retrieveIntent: (intentId) => run(() => ledger.retrieve(intentId)),
    confirmIntent: ({ intentId, paymentMethodId, idempotencyKey }) => run(() => ledger.confirm(intentId, paymentMethodId, idempotencyKey)),
    captureIntent: ({ intentId, idempotencyKey }) => run(() => ledger.capture(intentId, idempotencyKey)),
    cancelIntent: ({ intentId, idempotencyKey }) => run(() => ledger.cancel(intentId, idempotencyKey)),
    parseWebhookEvent: (rawBody, signature, receivedAt) => verifyStripeWebhook(rawBody, signature, options.webhookSecret, receivedAt),
    cards: {
      // A stable id per customer of ours: after a restart the (in-memory) customer is simply recreated.
      ensureCustomer: ({ customerId }) => settle(() => ledger.upsertCustomer(`cus_sim_${customerId}`).id),
      listCards: (processorCustomerId) =>
        settle(() =>
          ledger.listPaymentMethods(processorCustomerId).map((method) => ({
            id: method.id,
            brand: method.card.brand,
            last4: method.card.last4,
            expMonth: method.card.exp_month,
            expYear: method.card.exp_year,
          })),
        ),
      detachCard: ({ processorCustomerId, paymentMethodId }) =>
        settle(() => {
          const method = ledger.paymentMethodOrNull(paymentMethodId);
          if (method?.customer !== processorCustomerId) return false;
          ledger.detachPaymentMethod(paymentMethodId);
          return true;
        }),
    },
  };
}
