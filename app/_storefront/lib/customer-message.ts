import { NETWORK_ERROR, type StorefrontError } from "./errors";

/**
 * What a customer reads for an error. The service's own messages are written for a client
 * developer; those about the customer's own input (a code, an amount, a time) read well and are
 * kept, while transport and server failures get plain words and what to do next.
 */
export function customerMessage(error: StorefrontError): string {
  if (error.code === NETWORK_ERROR) return "We could not reach the restaurant. Check your connection and try again.";
  if (error.code === "RATE_LIMITED") return "That was a lot of requests in a short time. Please wait a moment and try again.";
  if (error.code === "DEPENDENCY_UNAVAILABLE" || error.status === 502 || error.status === 503 || error.status === 504) return "Ordering is briefly unavailable. Please try again in a moment.";
  if (error.code === "INTERNAL_ERROR" || (error.status ?? 0) >= 500) return "Something went wrong on our side. Please try again; if it keeps happening, contact the restaurant with the support reference below.";
  if (error.code === "CART_CONFLICT") return "Your cart changed in another tab or on another device. Please check it and try again.";
  if (error.code === "REQUOTE_REQUIRED" && reasonsOf(error).includes("DISCOUNT_WITHDRAWN")) {
    return "Your discount code is no longer offered as it was when you applied it. Remove it, or apply it again, to pay.";
  }
  return error.message;
}

/** Why a REQUOTE_REQUIRED refused the payment (`details.reasons`). */
function reasonsOf(error: StorefrontError): string[] {
  const reasons = error.details?.reasons;
  return Array.isArray(reasons) ? reasons.filter((reason): reason is string => typeof reason === "string") : [];
}
