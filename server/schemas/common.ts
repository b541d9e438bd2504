import { IDEMPOTENCY_KEY_PATTERN } from "../domain/identifiers";
import { z } from "zod";
import { CART_ETAG } from "../domain/etag";

/**
 * Building blocks shared by every API schema. Numbers in JSON bodies are wrapped in a pipe so the
 * REST adapter's query-string coercion never applies to them: `"2"`, `null` or `true` for a quantity
 * is a 400, not a silent 2, 0 or 1.
 */
export const MAX_SAFE = 9007199254740991;

export const identifier = z.string().min(1).max(128);
const URL_SAFE = /^[A-Za-z0-9._:~-]+$/;
export const pathId = identifier.regex(URL_SAFE, "must be 1-128 URL-safe characters");

/** pathId's rule as a plain test, for the REST route matcher, which checks every path parameter of every request. */
export function isPathId(value: string): boolean {
  return value.length >= 1 && value.length <= 128 && URL_SAFE.test(value);
}

export const jsonInteger = (min: number, max: number) => z.number().int().min(min).max(max).pipe(z.number());
/** A bounded JSON number; the pipe's output keeps the bounds, so a response schema documents them too. */
export const jsonNumber = (min: number, max: number) => z.number().min(min).max(max).pipe(z.number().min(min).max(max));

export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, "must be a decimal string");
export const nonNegativeDecimal = z.string().max(32).regex(/^\d+(\.\d+)?$/, "must be a non-negative decimal string");
export const dateTime = z.iso.datetime({ offset: true });

/** A short number to read out, on every view of an order (receipt, order history). */
export const orderNumberSchema = z
  .string()
  .regex(/^[0-9A-Z]{3}-[0-9A-Z]{3}$/)
  .meta({ description: "Short number to read out at the counter or to the courier (e.g. K7Q-2M4); derived from the order id, so stable. Not unique across all orders: the order id is the identifier." });

export const readyAtSchema = dateTime
  .nullable()
  .meta({
    description:
      "When the order should be ready, fixed when it was placed: placedAt plus the method's lead time, and for LATER no earlier than the booked time. For delivery, when it should arrive: that plus the courier's quoted travel time. Null only on orders placed before this was recorded.",
  });
export const currencySchema = z.enum(["usd", "gbp", "aed", "aud"]);
export const fulfilmentMethodSchema = z.enum(["takeout", "table_side", "room_service", "delivery"]);

export const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");
export const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour)");

/**
 * Path parameters the routers share, each described once: zod-openapi's `param` meta is the
 * parameter's own description (a plain `description` would be copied into its schema as well).
 */
const pathParam = (description: string) => pathId.meta({ param: { description } });
export const locationIdParam = pathParam("Location identifier (1-128 URL-safe characters).");
export const locationSlugOrIdParam = pathParam("Location identifier or its slug (1-128 URL-safe characters).");
export const cartIdParam = pathParam("Cart identifier (`cart.id`).");
export const itemIdParam = pathParam("Cart line identifier (`items[].id`).");
export const productIdParam = pathParam("Product identifier.");
export const receiptIdParam = pathParam("Receipt identifier: the `receiptId` of the completed order result.");
/** Optional query parameters are re-wrapped by trpc-to-openapi, which drops `param` meta: they describe their schema instead. */
/**
 * A page size: a JSON integer (tRPC), or in a query string its decimal digits alone. Not
 * `z.coerce.number()`, which also reads "1e2", "0x10", " 5" and "5.0" as numbers.
 */
export const pageLimit = (fallback: number, max: number) =>
  z.preprocess((value) => (typeof value === "string" && /^[0-9]{1,6}$/.test(value) ? Number(value) : value), z.number().int().min(1).max(max).default(fallback));

export const pageCursor = z.string().max(512).meta({ description: "The `nextCursor` of the previous page; omit for the first page." }).optional();

/**
 * Request headers, declared per operation kind (server/trpc/operation-kinds.ts) so the OpenAPI
 * document lists them with these descriptions. Each credential header alone is optional where the
 * kind accepts another one instead.
 */
const requestHeader = (description: string) => z.string().meta({ param: { description } });
const optionalRequestHeader = (description: string) => z.string().optional().meta({ param: { required: false, description } });
const eitherOr = (carries: string, other: string) => `${carries} Send this or \`${other}\`; one of them is required.`;
const carriesCartToken = "Cart capability: the `cartAccessToken` returned by the ordering session.";
const carriesReceiptToken = "Receipt capability: the `receiptToken` of the completed order result.";
const carriesBearer = "`Bearer <customer JWT>`, the merchant-bound session from customer sign-in.";

export const idempotencyKeyHeader = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .meta({ param: { description: "Unique per logical request (16-128 of A-Z a-z 0-9 . _ : -); reuse it only to retry the identical request." } });
export const ifMatchHeader = z
  .string()
  .regex(CART_ETAG)
  .meta({ param: { description: 'Current cart ETag, e.g. "cart-3" (optionally W/-prefixed; the revision has no leading zeros). Missing: 428. Malformed: 400 VALIDATION_ERROR. Stale: 409 CART_CONFLICT.' } });
const ifNoneMatchHeader = z.string().optional().meta({
  param: {
    id: "IfNoneMatch",
    required: false,
    description: "ETag(s) from an earlier response. When one matches the current representation, the answer is 304 Not Modified with no body.",
  },
});

export const readHeaders = z.object({ "If-None-Match": ifNoneMatchHeader });
export const writeHeaders = z.object({ "Idempotency-Key": idempotencyKeyHeader });
const cartCredentialHeaders = z.object({
  "X-Cart-Token": optionalRequestHeader(eitherOr(carriesCartToken, "Authorization")),
  Authorization: optionalRequestHeader(eitherOr(carriesBearer, "X-Cart-Token")),
});
export const cartReadHeaders = cartCredentialHeaders.extend(readHeaders.shape);
export const cartWriteHeaders = cartCredentialHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader, "If-Match": ifMatchHeader });
/** Cart-scoped writes whose precondition is not the revision (reporting a payment, rating): no If-Match. */
export const cartCheckoutHeaders = cartCredentialHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader });
export const receiptReadHeaders = z.object({
  "X-Receipt-Token": optionalRequestHeader(eitherOr(carriesReceiptToken, "Authorization")),
  Authorization: optionalRequestHeader(eitherOr(carriesBearer, "X-Receipt-Token")),
  ...readHeaders.shape,
});

/** Customer routes: the bearer token is the only credential. */
const customerCredentialHeaders = z.object({ Authorization: requestHeader(`${carriesBearer} Required.`) });
export const customerReadHeaders = customerCredentialHeaders.extend(readHeaders.shape);
export const customerWriteHeaders = customerCredentialHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader });

/**
 * Response headers. Each is one component of the document (zod-openapi's `header` meta with an id);
 * server/routers/meta.ts adds the transport's own to every operation.
 */
const privateCacheControl = z.string().meta({ header: { id: "CacheControl", description: "private, no-store" } });
export const privateResponseHeaders = z.object({ "Cache-Control": privateCacheControl });
export const pollResponseHeaders = privateResponseHeaders.extend({
  "Retry-After": z
    .string()
    .optional()
    .meta({ header: { id: "RetryAfter", description: "While the result is pending: seconds to wait before polling again (pollAfterMs, rounded up)." } }),
});

export const etagResponseHeaders = z.object({
  ETag: z.string().meta({ header: { id: "ETag", description: 'The cart revision as an entity tag, e.g. "cart-4". Send it back in If-Match.' } }),
  "Cache-Control": privateCacheControl,
});

/** What a read answers when it declares no validator or caching of its own. */
export const readValidatorHeaders = z.object({
  ETag: z.string().meta({
    header: { id: "ContentETag", description: "Strong validator of this representation. Send it in If-None-Match to get 304 Not Modified while it is unchanged." },
  }),
  "Cache-Control": z.string().meta({
    header: {
      id: "PublicCacheControl",
      description:
        "Shared caches may store the response briefly: `public, max-age=30, stale-while-revalidate=60`. The service itself answers repeated anonymous reads from memory for a few seconds (at most that max-age); a request with `Cache-Control: no-cache` is answered fresh.",
    },
  }),
});

/** Set by the transport (server/http) on every response, errors included. */
export const requestIdHeader = z.string().min(8).meta({
  header: { id: "RequestId", description: "Opaque id of this request, on every response (errors carry it as `requestId` too). Quote it when reporting a problem." },
});
const rateLimitHeader = (id: string, minimum: number, description: string) =>
  z.number().int().min(minimum).optional().meta({ header: { id, description: `${description} Omitted when the rate limiter could not answer.` } });
export const transportResponseHeaders = z.object({
  "X-Request-Id": requestIdHeader,
  "X-RateLimit-Limit": rateLimitHeader("RateLimitLimit", 1, "Requests allowed per window for this client address (200 per 10 minutes)."),
  "X-RateLimit-Remaining": rateLimitHeader("RateLimitRemaining", 0, "Requests left in the current window."),
  "X-RateLimit-Reset": rateLimitHeader("RateLimitReset", 0, "When the current window ends, as a Unix timestamp in epoch seconds. The window is sliding: its requests then count, at a weight falling to none over the next window, so the whole limit is back one window later. After a 429, `Retry-After` says when a request will be let through."),
});

/** On the success of every write that takes an Idempotency-Key. */
export const replayResponseHeaders = z.object({
  "Idempotent-Replayed": z.enum(["true"]).optional().meta({
    header: {
      id: "IdempotentReplayed",
      description:
        "`true` when this response replays the stored result of an earlier request with the same Idempotency-Key (same status, body and headers); absent on the first execution.",
    },
  }),
});
