/**
 * Error identity that survives the production bundle. Next.js can place one module in several
 * server chunks (an API route, instrumentation.ts, a page), each with its own copy of every class:
 * an error made by the dependencies that one chunk built (the payment processor, the rate limiter)
 * is then not `instanceof` the class that another chunk's code imports. So each of our error
 * classes carries its name under a registered symbol, the same in every copy, and code asks
 * `isErrorKind(value, "AppError")` instead of `instanceof` (ESLint refuses `instanceof` on them).
 */
const ERROR_KIND = Symbol.for("storefront-ordering-service.error-kind");

/** The names of this service's error classes: one entry per class that sets `[ERROR_KIND]`. */
export type ErrorKindName = "AppError" | "PaymentProcessorError" | "WebhookSignatureError" | "LedgerError" | "DatabaseDeadlineError";

/** Marks an error instance with its kind; every error class calls it in its constructor. */
export function markErrorKind(error: Error, kind: ErrorKindName): void {
  Object.defineProperty(error, ERROR_KIND, { value: kind, enumerable: false });
}

/** True when `value` was made by any copy of the class named `kind`. */
export function isErrorKind<T extends Error>(value: unknown, kind: ErrorKindName): value is T {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_KIND] === kind;
}
