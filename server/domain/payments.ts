import type { Currency, Minor } from "./money";

/**
 * Payment rules that do not depend on which processor holds the money. Processors speak Stripe's
 * vocabulary (the simulated one mirrors it), so a PaymentIntent's status values are Stripe's.
 */
export const intentStatuses = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
  "requires_capture",
  "canceled",
  "succeeded",
] as const;
export type IntentStatus = (typeof intentStatuses)[number];

export type CardSummary = { brand: string; last4: string };
export type PaymentFailure = { code: string; message: string };

/** A PaymentIntent as the service sees it, whichever processor holds it. */
export type ProcessorIntent = {
  id: string;
  status: IntentStatus;
  amountMinor: Minor;
  /** Lower-case, as processors write it. */
  currency: string;
  clientSecret: string;
  metadata: Record<string, string>;
  /** The card of the latest confirmation: brand and last 4 digits, never more. */
  card: CardSummary | null;
  lastError: PaymentFailure | null;
};

/** What a cart's PaymentIntent must carry: the amount of the quote and the binding to cart and quote. */
export type IntentTerms = {
  amountMinor: Minor;
  currency: Currency;
  metadata: { cartId: string; quoteFingerprint: string; locationId: string; merchantId: string };
  description: string;
  /**
   * A signed-in customer's cart: the processor's customer the intent is created for, so that the
   * card is saved to it for later (Stripe's setup_future_usage "on_session"). Set at creation only.
   */
  processorCustomerId?: string;
};

/**
 * The processor's minimum charge per currency (Stripe's: USD 0.50, GBP 0.30, AUD 0.50, AED 2.00).
 * Smaller amounts are refused before any processor call.
 */
export const PROCESSOR_MINIMUM_MINOR: Record<Currency, Minor> = { usd: 50, gbp: 30, aud: 50, aed: 200 };

export function belowProcessorMinimum(amountMinor: Minor, currency: Currency): boolean {
  return amountMinor < PROCESSOR_MINIMUM_MINOR[currency];
}

/**
 * The processor's largest charge: Stripe takes at most eight digits of minor units (USD 999,999.99;
 * the same digit limit in the other currencies here). A larger total would fail at the processor
 * (invalid_request) after the cart was priced; it is refused before any processor call instead.
 */
export const PROCESSOR_MAXIMUM_MINOR = 99_999_999;

export function aboveProcessorMaximum(amountMinor: Minor): boolean {
  return amountMinor > PROCESSOR_MAXIMUM_MINOR;
}

/** The API shows ISO codes upper-case ("USD"); processors and the Cart use lower-case. */
export function apiCurrencyCode(currency: Currency): string {
  return currency.toUpperCase();
}

type QuotedCart = {
  id: string;
  locationId: string;
  merchantId: string;
  currency: Currency;
  restaurantDisplayName: string;
  quoteFingerprint: string;
  priced: { orderTotalWithServiceFee: Minor };
};

export function intentTermsFor(cart: QuotedCart): IntentTerms {
  return {
    amountMinor: cart.priced.orderTotalWithServiceFee,
    currency: cart.currency,
    metadata: { cartId: cart.id, quoteFingerprint: cart.quoteFingerprint, locationId: cart.locationId, merchantId: cart.merchantId },
    description: `Order at ${cart.restaurantDisplayName}`,
  };
}

/**
 * True when the intent, as the processor reports it, charges exactly this quote of this cart. The
 * only test that matters before money moves: what we recorded may lag behind the processor.
 */
export function intentCarriesTerms(intent: Pick<ProcessorIntent, "amountMinor" | "currency" | "metadata">, terms: Pick<IntentTerms, "amountMinor" | "currency" | "metadata">): boolean {
  return (
    intent.amountMinor === terms.amountMinor &&
    intent.currency.toLowerCase() === terms.currency &&
    intent.metadata.cartId === terms.metadata.cartId &&
    intent.metadata.quoteFingerprint === terms.metadata.quoteFingerprint
  );
}

/** Amount and metadata can change only before an authorization exists. */
export function isAmendable(status: IntentStatus): boolean {
  return status === "requires_payment_method" || status === "requires_confirmation" || status === "requires_action";
}

/**
 * Why a reported payment did not go through, for an intent that is not authorized: a decline, an
 * authentication the client did not complete, or an intent that was never confirmed or was canceled.
 */
export function failureOf(intent: Pick<ProcessorIntent, "status" | "lastError">): PaymentFailure {
  if (intent.status === "requires_action") {
    return { code: "authentication_required", message: "The card needs an authentication step that was not completed; try another card." };
  }
  if (intent.status === "canceled") return { code: "payment_canceled", message: "The payment was canceled; start the payment again." };
  if (intent.lastError) return intent.lastError;
  return { code: "payment_not_confirmed", message: "The payment was not confirmed with the card processor; confirm it, then report it again." };
}

/**
 * How long after a cart's idle expiry the reconciliation job still visits its payment session's intent to
 * cancel it: the processors' authorization window (Stripe drops an uncaptured authorization after 7 days).
 */
export const AUTHORIZATION_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * What the cart's intent needs so that the customer can pay the current quote:
 * - ready: it already carries the quote (possibly already authorized for it);
 * - update: amend amount and metadata (no authorization exists yet);
 * - cancel: an authorization exists for another amount or quote; release it, then create anew;
 * - create: there is no live intent;
 * - busy: money is moving (processing) or moved (succeeded); nothing may change it.
 */
export type IntentPlan = "ready" | "update" | "cancel" | "create" | "busy";

export function planIntentChange(current: Pick<ProcessorIntent, "status" | "amountMinor" | "currency" | "metadata"> | null, terms: IntentTerms): IntentPlan {
  if (current === null || current.status === "canceled") return "create";
  if (isAmendable(current.status)) return intentCarriesTerms(current, terms) ? "ready" : "update";
  if (current.status === "requires_capture") return intentCarriesTerms(current, terms) ? "ready" : "cancel";
  return "busy";
}
