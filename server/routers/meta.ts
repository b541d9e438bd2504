import type { z } from "zod";
import { cartCheckoutHeaders, cartWriteHeaders, customerReadHeaders, customerWriteHeaders, etagResponseHeaders, privateResponseHeaders, writeHeaders } from "../schemas/common";
import type { StorefrontMeta } from "../trpc/init";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = { method: Method; path: `/${string}`; summary: string; description?: string; tags: string[]; operationId?: string };

/** An anonymous, cacheable read. */
export function readMeta(route: Route): StorefrontMeta {
  return { openapi: { ...route, protect: false, errorResponses: [400, 404, 429, 500, 503] } };
}

/** A read that needs a credential (cart capability or customer JWT). */
export function protectedReadMeta(route: Route, requestHeaders: z.ZodObject, responseHeaders?: z.ZodObject): StorefrontMeta {
  return { openapi: { ...route, protect: true, requestHeaders, responseHeaders, errorResponses: [400, 401, 403, 404, 429, 500, 503] } };
}

/** A write that needs only an Idempotency-Key (no cart yet). */
export function writeMeta(route: Route, successStatus = 200): StorefrontMeta {
  return {
    successStatus,
    openapi: { ...route, protect: false, requestHeaders: writeHeaders, responseHeaders: etagResponseHeaders, errorResponses: [400, 404, 409, 429, 500, 503] },
  };
}

/** A cart mutation: capability or JWT, Idempotency-Key and If-Match; answers the Cart and its ETag. */
export function cartMutationMeta(route: Route): StorefrontMeta {
  return {
    openapi: {
      ...route,
      protect: true,
      requestHeaders: cartWriteHeaders,
      responseHeaders: etagResponseHeaders,
      errorResponses: [400, 401, 403, 404, 409, 428, 429, 500, 503],
    },
  };
}

/**
 * A cart-scoped write whose precondition is not the cart revision (reporting a payment, rating):
 * capability or JWT and Idempotency-Key, no If-Match.
 */
export function cartCheckoutMeta(route: Route, responseHeaders: z.ZodObject, successStatus = 200): StorefrontMeta {
  return {
    successStatus,
    openapi: { ...route, protect: true, requestHeaders: cartCheckoutHeaders, responseHeaders, errorResponses: [400, 401, 403, 404, 409, 429, 500, 503] },
  };
}

/** A write whose only requirement is the Idempotency-Key (customer sign-in); answers are never cached. */
export function anonymousWriteMeta(route: Route, errorResponses: number[]): StorefrontMeta {
  return { openapi: { ...route, protect: false, requestHeaders: writeHeaders, responseHeaders: privateResponseHeaders, errorResponses } };
}

/** A read of the signed-in customer's data: bearer customer JWT. */
export function customerReadMeta(route: Route, errorResponses: number[] = [400, 401, 403, 404, 429, 500, 503]): StorefrontMeta {
  return { openapi: { ...route, protect: true, requestHeaders: customerReadHeaders, responseHeaders: privateResponseHeaders, errorResponses } };
}

/** A write by the signed-in customer: bearer customer JWT and Idempotency-Key. */
export function customerWriteMeta(route: Route, errorResponses: number[], options: { successStatus?: number; responseHeaders?: z.ZodObject } = {}): StorefrontMeta {
  return {
    successStatus: options.successStatus ?? 200,
    openapi: { ...route, protect: true, requestHeaders: customerWriteHeaders, responseHeaders: options.responseHeaders ?? privateResponseHeaders, errorResponses },
  };
}
