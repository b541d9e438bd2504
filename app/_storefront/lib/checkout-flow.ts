import type { StorefrontError } from "./errors";
import type { Cart, OrderResult, PaymentSession } from "./types";

/**
 * One press of "Pay": payment session -> confirmation -> payment report, as a function of its
 * steps so the order of calls and the reactions to the server's answers are testable without a
 * browser. The steps do the I/O (through CartSession, so keys, retries and revisions are handled);
 * this decides what happens next.
 *
 * - REQUOTE_REQUIRED (the menu, fees or a quote moved on since the cart was priced): check the cart
 *   with validate-and-update. If the check leaves nothing for the customer to decide (a quote was
 *   simply renewed), pay once more; otherwise the customer reviews the changes first.
 * - A declined or unauthenticated card is not an error: the cart is OPEN again for another card.
 * - Anything pending or completed goes to the order status page, which polls.
 */
export type Step<T> = { ok: true; value: T } | { ok: false; error: StorefrontError };

/** What the card side said: confirmed (the server may now be told), or refused before any report. */
export type Confirmation = { ok: true } | { ok: false; failure: { code: string; message: string } };

export type PaySteps = {
  createSession: () => Promise<Step<PaymentSession>>;
  /** Simulated processor: nothing to do (the report carries the test payment method). Stripe: confirmPayment. */
  confirm: (session: PaymentSession) => Promise<Confirmation>;
  report: (quoteFingerprint: string) => Promise<Step<OrderResult>>;
  /** validate-and-update with `{}`. */
  check: () => Promise<Step<Cart>>;
};

export type PayOutcome =
  | { kind: "placed"; result: OrderResult }
  | { kind: "failed"; failure: { code: string; message: string } }
  | { kind: "review"; cart: Cart }
  | { kind: "error"; error: StorefrontError };

const MAX_REQUOTES = 1;

export async function pay(steps: PaySteps): Promise<PayOutcome> {
  for (let requotes = 0; ; requotes++) {
    const outcome = await attempt(steps);
    if (outcome.kind !== "requote") return outcome;
    if (requotes >= MAX_REQUOTES) return { kind: "error", error: outcome.error };
    const checked = await steps.check();
    if (!checked.ok) return { kind: "error", error: checked.error };
    if (checked.value.catalogRevalidation?.required) return { kind: "review", cart: checked.value };
  }
}

async function attempt(steps: PaySteps): Promise<PayOutcome | { kind: "requote"; error: StorefrontError }> {
  const session = await steps.createSession();
  if (!session.ok) return failure(session.error);
  const confirmation = await steps.confirm(session.value);
  if (!confirmation.ok) return { kind: "failed", failure: confirmation.failure };
  const reported = await steps.report(session.value.quote.revision);
  if (!reported.ok) return failure(reported.error);
  const result = reported.value;
  if (result.status === "failed") return { kind: "failed", failure: result.failure ?? { code: "payment_failed", message: "The payment failed." } };
  return { kind: "placed", result };
}

function failure(error: StorefrontError): PayOutcome | { kind: "requote"; error: StorefrontError } {
  return error.code === "REQUOTE_REQUIRED" ? { kind: "requote", error } : { kind: "error", error };
}

/** What to add to the processor's own message (which already says to try another card). */
export function failureHint(code: string): string {
  if (code === "authentication_required") return "The bank asked for a confirmation step that this demo cannot show. Nothing was charged.";
  if (code === "cart_expired") return "Start a new order from the menu.";
  return "Nothing was charged.";
}
