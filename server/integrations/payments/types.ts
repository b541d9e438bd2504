import type { IntentTerms, ProcessorIntent } from "../../domain/payments";
import { isErrorKind, markErrorKind } from "../../error-kind";

export type { IntentTerms, ProcessorIntent };

/**
 * - unavailable: the processor could not be reached or failed on its side; retrying is safe.
 * - invalid_state: the intent cannot take this operation in its current status.
 * - not_found: no such intent.
 * - invalid_request: the processor refused a parameter (e.g. an unknown payment method id).
 * - rejected: the processor refused us (bad API key, permissions, an idempotency key reused with
 *   other parameters): a bug or misconfiguration, never the customer's doing.
 */
export type ProcessorErrorKind = "unavailable" | "invalid_state" | "not_found" | "invalid_request" | "rejected";

export class PaymentProcessorError extends Error {
  readonly kind: ProcessorErrorKind;
  /**
   * The processor answered with a server error, which it keeps under the call's idempotency key and
   * answers again to every call with that key (Stripe: 24 hours). Only a call with another key can
   * get another answer. False when no answer came (a timeout, a lost connection): the same key then
   * finds whatever the first call did.
   */
  readonly keptUnderKey: boolean;

  constructor(kind: ProcessorErrorKind, message: string, options: { cause?: unknown; keptUnderKey?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = "PaymentProcessorError";
    markErrorKind(this, "PaymentProcessorError");
    this.kind = kind;
    this.keptUnderKey = options.keptUnderKey ?? false;
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "WebhookSignatureError";
    markErrorKind(this, "WebhookSignatureError");
  }
}

/** Any copy of these classes (server/error-kind.ts says why not `instanceof`). */
export const isPaymentProcessorError = (value: unknown): value is PaymentProcessorError => isErrorKind<PaymentProcessorError>(value, "PaymentProcessorError");
export const isWebhookSignatureError = (value: unknown): value is WebhookSignatureError => isErrorKind<WebhookSignatureError>(value, "WebhookSignatureError");

/** The part of a verified webhook event the service acts on; the intent itself is re-read from the processor. */
export type WebhookEvent = { id: string; type: string; intentId: string | null };

/** A card saved at the processor for one of its customers: what may be shown, never more. */
export type SavedCard = { id: string; brand: string; last4: string; expMonth: number; expYear: number };

/**
 * The processor's customers and their saved cards. Cards are saved by paying while signed in (the
 * intent carries IntentTerms.processorCustomerId).
 */
export interface CardVault {
  /**
   * The processor's customer for one of ours: `known` when one was recorded earlier, else created
   * (with the caller's idempotency key, so a retry after a crash finds the same one).
   */
  ensureCustomer(request: { customerId: string; email: string | null; known: string | null; idempotencyKey: string }): Promise<string>;
  listCards(processorCustomerId: string): Promise<SavedCard[]>;
  /** Removes the card from the customer; false when it is not one of this customer's cards. */
  detachCard(request: { processorCustomerId: string; paymentMethodId: string }): Promise<boolean>;
}

/**
 * A card processor holding PaymentIntents with manual capture: the customer's confirmation only
 * authorizes, and the service captures after checking the authorization against the locked cart.
 * Every write takes an idempotency key chosen by the caller (never a random one), so a retry after
 * a crash reaches the same intent and the same charge.
 */
export interface PaymentProcessor {
  readonly name: "stripe" | "simulated";
  /** Creates the intent (intentId null) or amends its amount and metadata. */
  createOrUpdateIntent(request: { intentId: string | null; terms: IntentTerms; idempotencyKey: string }): Promise<ProcessorIntent>;
  retrieveIntent(intentId: string): Promise<ProcessorIntent>;
  /** Server-side confirmation with a payment method id. A decline answers the declined intent; it does not throw. */
  confirmIntent(request: { intentId: string; paymentMethodId: string; idempotencyKey: string }): Promise<ProcessorIntent>;
  captureIntent(request: { intentId: string; idempotencyKey: string }): Promise<ProcessorIntent>;
  cancelIntent(request: { intentId: string; idempotencyKey: string }): Promise<ProcessorIntent>;
  /** Verifies the signature over the raw body (throws WebhookSignatureError) and extracts the event. */
  parseWebhookEvent(rawBody: string, signature: string | null, receivedAt: Date): WebhookEvent;
  readonly cards: CardVault;
}
