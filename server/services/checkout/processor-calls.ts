import type { AppDeps } from "../../app/deps";
import type { ProcessorIntent } from "../../domain/payments";
import { dependencyUnavailable } from "../../errors";
import { isPaymentProcessorError } from "../../integrations/payments/types";

/** A processor that cannot be reached is a 503 with Retry-After, like a lost database. */
export async function processorCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isPaymentProcessorError(error) && error.kind === "unavailable") throw dependencyUnavailable("The card processor", error);
    throw error;
  }
}

/**
 * Whether a processor call failed with an answer the processor keeps under the call's idempotency
 * key (PaymentProcessorError.keptUnderKey), as processorCall rethrows it or as it came. Sending the
 * call again with that key would get the same error until the processor forgets the key (Stripe: 24
 * hours): the caller never does (a recorded intent call moves to nextTryKey, a confirmation takes the
 * error as the processor's refusal).
 */
export function keptUnderKey(error: unknown): boolean {
  const processorError = isPaymentProcessorError(error) ? error : error instanceof Error && isPaymentProcessorError(error.cause) ? error.cause : undefined;
  return processorError?.keptUnderKey ?? false;
}

/**
 * The key for the next try of a call whose key the processor answered with a kept error: the base
 * key with a try number, `base:r1`, `base:r2`, ... Every caller that read the same key derives the
 * same next one, so concurrent retries still share a key.
 */
export function nextTryKey(key: string): string {
  const tried = /^(.*):r(\d+)$/.exec(key);
  return tried?.[1] !== undefined && tried[2] !== undefined ? `${tried[1]}:r${Number(tried[2]) + 1}` : `${key}:r1`;
}

/** The intent as the processor holds it now, or null when the processor does not know it. */
export async function retrieveOrNull(deps: AppDeps, intentId: string): Promise<ProcessorIntent | null> {
  try {
    return await processorCall(() => deps.payments.retrieveIntent(intentId));
  } catch (error) {
    if (isPaymentProcessorError(error) && error.kind === "not_found") return null;
    throw error;
  }
}

const LOST = "payment_lost";

/**
 * Whether an intent the processor does not know (not found) is gone, i.e. holds nothing: when it was made
 * by this processor, or by the simulated one (never real money; its memory does not outlive a restart).
 * A Stripe intent read by an instance on the simulated processor (a mixed or misconfigured deployment) is
 * not: Stripe still has it.
 */
export function forgottenIsGone(sessionProcessor: string, currentProcessor: string): boolean {
  return sessionProcessor === currentProcessor || sessionProcessor === "simulated";
}

/** Whether `intent` is lostIntent's stand-in for one the processor no longer knows. */
export const isLostIntent = (intent: ProcessorIntent): boolean => intent.lastError?.code === LOST;

/** An intent the processor no longer knows reads as canceled: nothing can be charged on it. */
export function lostIntent(intentId: string): ProcessorIntent {
  return {
    id: intentId,
    status: "canceled",
    amountMinor: 0,
    currency: "",
    clientSecret: "",
    metadata: {},
    card: null,
    lastError: { code: LOST, message: "The card processor no longer knows this payment; start the payment again." },
  };
}
