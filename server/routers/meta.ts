import type { z } from "zod";
import { etagResponseHeaders, privateResponseHeaders } from "../schemas/common";
import type { StorefrontMeta } from "../trpc/init";
import { kindRules, type OperationKind } from "../trpc/operation-kinds";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = { method: Method; path: `/${string}`; summary: string; description?: string; tags: string[]; operationId?: string };
type Options = { successStatus?: number; responseHeaders?: z.ZodObject; errorStatuses?: readonly number[] };

/**
 * An operation's meta: its kind (server/trpc/operation-kinds.ts), its literal REST path and what the
 * kind implies for the document (credential, request headers, error statuses). Each procedure calls
 * exactly one of the functions below, so its kind is written once, where it is declared.
 */
export function operationMeta(kind: OperationKind, route: Route, options: Options = {}): StorefrontMeta {
  const rules = kindRules[kind];
  return {
    kind,
    ...(options.successStatus !== undefined ? { successStatus: options.successStatus } : {}),
    openapi: {
      ...route,
      protect: rules.credential !== "none",
      ...(rules.requestHeaders ? { requestHeaders: rules.requestHeaders } : {}),
      ...(options.responseHeaders ? { responseHeaders: options.responseHeaders } : {}),
      errorResponses: [...(options.errorStatuses ?? rules.errorStatuses)],
    },
  };
}

/** An anonymous, cacheable read. */
export const readMeta = (route: Route) => operationMeta("anonymousRead", route);

/** A read with the cart's capability or the owner's customer JWT. */
export const cartReadMeta = (route: Route, responseHeaders?: z.ZodObject) => operationMeta("cartRead", route, { responseHeaders });

/** A receipt read with its receipt capability or the owner's customer JWT. */
export const receiptReadMeta = (route: Route, responseHeaders?: z.ZodObject) => operationMeta("receiptRead", route, { responseHeaders });

/** A write that needs only an Idempotency-Key (no cart yet). */
export const writeMeta = (route: Route, successStatus = 200) => operationMeta("anonymousWrite", route, { successStatus, responseHeaders: etagResponseHeaders });

/** A cart mutation: capability or JWT, Idempotency-Key and If-Match; answers the Cart and its ETag. */
export const cartMutationMeta = (route: Route) => operationMeta("cartMutation", route, { responseHeaders: etagResponseHeaders });

/**
 * A cart-scoped write whose precondition is not the cart revision (reporting a payment, rating):
 * capability or JWT and Idempotency-Key, no If-Match.
 */
export const cartCheckoutMeta = (route: Route, responseHeaders: z.ZodObject, successStatus = 200) => operationMeta("checkout", route, { responseHeaders, successStatus });

/** A write whose only requirement is the Idempotency-Key (customer sign-in); answers are never cached. */
export const anonymousWriteMeta = (route: Route, errorStatuses: number[]) => operationMeta("anonymousWrite", route, { responseHeaders: privateResponseHeaders, errorStatuses });

/** A read of the signed-in customer's data: bearer customer JWT. */
export const customerReadMeta = (route: Route, errorStatuses?: number[]) => operationMeta("customerRead", route, { responseHeaders: privateResponseHeaders, ...(errorStatuses ? { errorStatuses } : {}) });

/** A write by the signed-in customer: bearer customer JWT and Idempotency-Key. */
export const customerWriteMeta = (route: Route, errorStatuses: number[], options: { successStatus?: number; responseHeaders?: z.ZodObject } = {}) =>
  operationMeta("customerMutation", route, { successStatus: options.successStatus ?? 200, responseHeaders: options.responseHeaders ?? privateResponseHeaders, errorStatuses });
