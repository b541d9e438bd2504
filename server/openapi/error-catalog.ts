import { z } from "zod";
import { codeToStatus, errorCodes, type ErrorCode } from "../errors";

/**
 * What the errors mean to a client: the one place each code's meaning, each status's title and the
 * error envelope are written. server/errors.ts says which status a code has; the OpenAPI document
 * (./post-process.ts) lists, per status, these meanings and a sample of each code.
 */

/** Typed by ErrorCode so a new code cannot go undocumented. */
export const errorCatalog: Record<ErrorCode, { meaning: string; sampleMessage: string }> = {
  VALIDATION_ERROR: {
    meaning: "the path, query, headers or body are invalid; `details.fields` lists each problem",
    sampleMessage: "The request is not valid",
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    meaning: "the write was sent without an `Idempotency-Key` header",
    sampleMessage: "This operation needs an Idempotency-Key header",
  },
  UNAUTHORIZED: {
    meaning:
      "the credential (`X-Cart-Token`, `X-Receipt-Token` or customer JWT) is missing or invalid, or the customer session ended (signed out, expired); on sign-in and phone verification, the one-time code is wrong, expired, used or replaced",
    sampleMessage: "Send the cart's X-Cart-Token (or a customer bearer token)",
  },
  FORBIDDEN: {
    meaning: "the credential is valid but does not own this resource",
    sampleMessage: "This cart token belongs to a different cart",
  },
  NOT_FOUND: { meaning: "the resource does not exist or is hidden from this caller", sampleMessage: "Cart was not found" },
  RATE_LIMITED: {
    meaning: "too many requests from this client address, or too many one-time codes or wrong codes for one e-mail address or phone number; wait `Retry-After` seconds",
    sampleMessage: "Too many requests from this address; retry in Retry-After seconds",
  },
  CART_CONFLICT: {
    meaning: "`If-Match` is stale: reload the cart and retry with its current ETag",
    sampleMessage: "The cart changed since you read it; reload it and retry",
  },
  REQUOTE_REQUIRED: {
    meaning: "the cart's price quote is no longer valid and must be refreshed before this step",
    sampleMessage: "The quote has expired; re-read the cart before continuing",
  },
  RESOURCE_CONFLICT: {
    meaning: "the request conflicts with the current state of the resource",
    sampleMessage: "The resource is in a state that does not allow this request",
  },
  CART_IMMUTABLE: {
    meaning: "the cart is locked, completed or expired and can no longer be changed",
    sampleMessage: "The cart is EXPIRED and can no longer be changed",
  },
  IDEMPOTENCY_KEY_REUSED: {
    meaning: "this `Idempotency-Key` was already used for a different request",
    sampleMessage: "This Idempotency-Key was already used for a different request",
  },
  IDEMPOTENCY_IN_PROGRESS: {
    meaning: "a request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds",
    sampleMessage: "A request with this Idempotency-Key is still being processed; retry shortly",
  },
  PRECONDITION_REQUIRED: {
    meaning: "a cart change was sent without `If-Match`",
    sampleMessage: 'Cart changes need If-Match with the current cart ETag, e.g. "cart-3"',
  },
  DEPENDENCY_UNAVAILABLE: {
    meaning: "a required dependency (database, rate limiter, payment processor) is temporarily unavailable; retry after `Retry-After` seconds",
    sampleMessage: "The database is temporarily unavailable; retry shortly",
  },
  INTERNAL_ERROR: {
    meaning: "an unexpected error; quote the `requestId` when reporting it",
    sampleMessage: "An unexpected error occurred. Quote the request id when reporting it.",
  },
  METHOD_NOT_ALLOWED: {
    meaning: "the path exists but not with this method; `Allow` lists the methods it answers",
    sampleMessage: "PUT is not allowed here; this path answers GET, HEAD, OPTIONS",
  },
  REQUEST_HEADERS_TOO_LARGE: {
    meaning: "the request's headers are larger than the server accepts (16 KiB in all); answered by `npm start` before any operation is chosen",
    sampleMessage: "The request headers are too large",
  },
};

/** Each error status's title, a note on its headers, and whether it carries `Retry-After`. */
export const errorStatuses: Record<number, { title: string; note?: string; retryAfter?: true }> = {
  400: { title: "Bad Request: the request is invalid" },
  401: { title: "Unauthorized: authentication or capability required, or the credential is invalid" },
  403: { title: "Forbidden: the principal does not own the resource" },
  404: { title: "Not Found: the resource is missing or hidden" },
  405: { title: "Method Not Allowed: the path does not answer this method" },
  409: { title: "Conflict: an idempotency key or the resource revision conflicts", note: "`Retry-After` is sent with IDEMPOTENCY_IN_PROGRESS.", retryAfter: true },
  428: { title: "Precondition Required: a current `If-Match` revision is required" },
  429: { title: "Too Many Requests: rate limited", note: "`Retry-After` says how many seconds to wait.", retryAfter: true },
  431: { title: "Request Header Fields Too Large" },
  500: { title: "Internal Server Error: unexpected error" },
  503: { title: "Service Unavailable: a required dependency is temporarily unavailable", note: "`Retry-After` says how many seconds to wait.", retryAfter: true },
};

/** Codes per HTTP status, in the order of `errorCodes`, straight from the one code-to-status table. */
export function errorCodesByStatus(table: Record<ErrorCode, number> = codeToStatus): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) {
    const status = table[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

export const errorEnvelopeSchema = z
  .strictObject({
    code: z.string().meta({
      description: `Machine-readable error code. Known codes: ${errorCodes.join(", ")}. Other non-empty strings may occur: handle an unknown code by its HTTP status.`,
    }),
    message: z.string().min(1).meta({ description: "Human-readable explanation. Show or log it; do not parse it." }),
    requestId: z.string().min(8).meta({ description: "Opaque id of this request, the same as the X-Request-Id header." }),
    details: z.record(z.string(), z.unknown()).optional().meta({
      description: "Optional structured detail, e.g. `fields` (a list of `{path, message}`) on VALIDATION_ERROR, or `limit`, `resetAt` (the window's end) and, for the per-address limit, `retryAt` (when a request will be let through, as `Retry-After`) on RATE_LIMITED.",
    }),
  })
  .meta({ description: "The one error body of the service. It is closed: no other properties appear. `requestId` equals the X-Request-Id response header." });

/** Headers only error responses carry (the transport's own are in server/schemas/common.ts). */
export const errorHeaders = {
  ErrorCacheControl: { description: "Errors are never cached: `no-store`.", required: true, schema: { type: "string" } },
  ErrorRetryAfter: {
    description: "Seconds to wait before retrying. Sent on 429, on 503 and on 409 IDEMPOTENCY_IN_PROGRESS.",
    schema: { type: "integer", minimum: 1 },
  },
} as const;

export const SAMPLE_REQUEST_ID = "req_Zk3q9vR1mWc7TnB2xYpL4d0s";
