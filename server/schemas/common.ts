import { IDEMPOTENCY_KEY_PATTERN } from "../domain/identifiers";
import { z } from "zod";

/**
 * Building blocks shared by every API schema. Numbers in JSON bodies are wrapped in a pipe so the
 * REST adapter's query-string coercion never applies to them: `"2"`, `null` or `true` for a quantity
 * is a 400, not a silent 2, 0 or 1.
 */
export const MAX_SAFE = 9007199254740991;

export const identifier = z.string().min(1).max(128);
export const pathId = identifier.regex(/^[A-Za-z0-9._:~-]+$/, "must be 1-128 URL-safe characters");

export const jsonInteger = (min: number, max: number) => z.number().int().min(min).max(max).pipe(z.number());

export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, "must be a decimal string");
export const nonNegativeDecimal = z.string().max(32).regex(/^\d+(\.\d+)?$/, "must be a non-negative decimal string");
export const dateTime = z.iso.datetime({ offset: true });
export const currencySchema = z.enum(["usd", "gbp", "aed", "aud"]);
export const fulfilmentMethodSchema = z.enum(["takeout", "table_side", "room_service", "delivery"]);

export const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");
export const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour)");

/** Request headers, declared per procedure so the OpenAPI document lists them. */
export const idempotencyKeyHeader = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .meta({ description: "Unique per logical request (16-128 of A-Z a-z 0-9 . _ : -); reuse it only to retry the identical request." });
export const ifMatchHeader = z
  .string()
  .meta({ description: 'Current cart ETag, e.g. "cart-3" (optionally W/-prefixed). Missing: 428. Stale: 409 CART_CONFLICT.' });
export const cartTokenHeader = z.string().meta({ description: "Cart capability returned by the ordering session (cartAccessToken)." });
export const authorizationHeader = z.string().meta({ description: "Bearer <customer JWT> (merchant-bound), instead of X-Cart-Token." });

export const writeHeaders = z.object({ "Idempotency-Key": idempotencyKeyHeader });
export const cartReadHeaders = z.object({ "X-Cart-Token": cartTokenHeader.optional(), Authorization: authorizationHeader.optional() });
export const cartWriteHeaders = cartReadHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader, "If-Match": ifMatchHeader });
/** Cart-scoped writes whose precondition is not the revision (reporting a payment, rating): no If-Match. */
export const cartCheckoutHeaders = cartReadHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader });
export const receiptTokenHeader = z.string().meta({ description: "Receipt capability: the receiptToken of the completed order result." });
export const receiptReadHeaders = z.object({ "X-Receipt-Token": receiptTokenHeader.optional(), Authorization: authorizationHeader.optional() });

/** Customer routes: the bearer token is the only credential. */
export const customerReadHeaders = z.object({
  Authorization: z.string().meta({ description: "Bearer <customer JWT>: the merchant-bound token from /customer/auth/verify-otp." }),
});
export const customerWriteHeaders = customerReadHeaders.extend({ "Idempotency-Key": idempotencyKeyHeader });

export const privateResponseHeaders = z.object({ "Cache-Control": z.string().meta({ description: "private, no-store" }) });
export const pollResponseHeaders = privateResponseHeaders.extend({
  "Retry-After": z.string().optional().meta({ description: "While the result is pending: seconds to wait before polling again (pollAfterMs, rounded up)." }),
});

export const etagResponseHeaders = z.object({
  ETag: z.string().meta({ description: 'The cart revision as an entity tag, e.g. "cart-4". Send it back in If-Match.' }),
  "Cache-Control": z.string().meta({ description: "private, no-store" }),
});
