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

/** The intent as the processor holds it now, or null when the processor does not know it. */
export async function retrieveOrNull(deps: AppDeps, intentId: string): Promise<ProcessorIntent | null> {
  try {
    return await processorCall(() => deps.payments.retrieveIntent(intentId));
  } catch (error) {
    if (isPaymentProcessorError(error) && error.kind === "not_found") return null;
    throw error;
  }
}

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
    lastError: { code: "payment_lost", message: "The card processor no longer knows this payment; start the payment again." },
  };
}
