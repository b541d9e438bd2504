import { z } from "zod";
import { etagResponseHeaders, privateResponseHeaders, readValidatorHeaders, replayResponseHeaders, transportResponseHeaders } from "../schemas/common";
import type { StorefrontMeta } from "../trpc/init";
import { ALWAYS_POSSIBLE_ERROR_STATUSES, credentials, kindRules, operationErrorCodes, type OperationKind, type StateConflictCode } from "../trpc/operation-kinds";

/** The document's tags, in the order it lists them, and what each groups. */
export const operationTags = {
  Catalog: "Anonymous, cacheable reads of published locations, menus, products, order times and gratuity policy.",
  "Ordering sessions": "Start ordering: creates a guest cart and returns its capability token (once).",
  Carts: "Read and change a priced cart. Every change is idempotent (Idempotency-Key) and optimistic (If-Match with the cart's ETag).",
  Discounts: "Apply or remove a cart's discount code; the same rules as every other cart change.",
  Checkout: "Payment session, payment, order result polling and rating of a cart.",
  Receipts: "Receipts, readable with a customer JWT or an X-Receipt-Token receipt capability.",
  "Customer authentication": "Merchant-bound customer sign-in by one-time code.",
  Customer: "The signed-in customer's profile, orders, addresses, saved payments, loyalty ledger and phone verification.",
} as const;
export type OperationTag = keyof typeof operationTags;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = { method: Method; path: `/${string}`; summary: string; description?: string; tags: OperationTag[]; operationId?: string };
/** `conflicts`: the 409s the use case answers from what it finds (operation-kinds.ts stateConflictCodes); its kind's own codes come with the kind. */
type Options = { successStatus?: number; responseHeaders?: z.ZodObject; errorStatuses?: readonly number[]; conflicts?: readonly StateConflictCode[] };

/** The rules an operation's kind imposes, in the words its description closes with. */
function ruleNotes(kind: OperationKind, method: Method, successStatus: number, revisionTagged: boolean): string[] {
  const rules = kindRules[kind];
  const accepted = credentials[rules.credential].headers.map((name) => `\`${name}\``);
  return [
    ...(accepted.length > 0 ? [`**Credential:** ${accepted.join(" or ")}, in the header, never in the query string.`] : []),
    ...(rules.idempotencyKey
      ? [
          "**Idempotent:** send a unique `Idempotency-Key`. Retrying the identical request with the same key replays the stored response with `Idempotent-Replayed: true`; the same key on a different request is 409 IDEMPOTENCY_KEY_REUSED.",
        ]
      : []),
    ...(rules.ifMatch
      ? [
          "**Optimistic concurrency:** send the cart's current ETag in `If-Match`. Missing: 428 PRECONDITION_REQUIRED. Stale: 409 CART_CONFLICT (reload the cart, then retry). The response carries the new ETag.",
        ]
      : []),
    ...(method === "GET" && !revisionTagged ? ["**Conditional:** send the ETag of an earlier response in `If-None-Match` to get 304 Not Modified while it is unchanged."] : []),
    ...(revisionTagged
      ? [
          "**Not conditional:** the ETag is the cart's revision, the token for `If-Match`. What the cart shows also follows the clock and the published catalog (an idle cart read as EXPIRED, `catalogRevalidation`), which move no revision, so `If-None-Match` is not evaluated: every read answers 200 with the current cart.",
        ]
      : []),
    ...(successStatus !== 200 ? [`**Success status:** ${successStatus}.`] : []),
  ];
}

/**
 * The success response's headers: the operation's own, for a read the validator and caching it
 * does not declare itself, the transport's, and the replay marker of idempotent writes.
 */
function successHeaders(kind: OperationKind, method: Method, declared: z.ZodObject | undefined): z.ZodObject {
  const own = declared?.shape ?? {};
  const validators = method === "GET" ? Object.fromEntries(Object.entries(readValidatorHeaders.shape).filter(([name]) => !(name in own))) : {};
  const replay = kindRules[kind].idempotencyKey ? replayResponseHeaders.shape : {};
  return z.object({ ...own, ...validators, ...transportResponseHeaders.shape, ...replay });
}

/**
 * An operation's meta: its kind (server/trpc/operation-kinds.ts), its literal REST path and what the
 * kind implies for the document (credential, request and response headers, error statuses, the
 * rules its description states). Each procedure calls exactly one of the functions below, so its
 * kind is written once, where it is declared.
 */
export function operationMeta(kind: OperationKind, route: Route, options: Options = {}): StorefrontMeta {
  const rules = kindRules[kind];
  const successStatus = options.successStatus ?? 200;
  // A read that answers the cart's revision as its ETag (etagResponseHeaders) cannot use it as a validator of its body.
  const revisionTagged = route.method === "GET" && options.responseHeaders?.shape.ETag === etagResponseHeaders.shape.ETag;
  const errorStatuses = [...new Set([...(options.errorStatuses ?? rules.errorStatuses), ...ALWAYS_POSSIBLE_ERROR_STATUSES])].sort((a, b) => a - b);
  return {
    kind,
    errorCodes: operationErrorCodes(kind, errorStatuses, options.conflicts ?? []),
    ...(options.successStatus !== undefined ? { successStatus: options.successStatus } : {}),
    ...(revisionTagged ? { revisionTagged } : {}),
    openapi: {
      ...route,
      description: [route.description, ...ruleNotes(kind, route.method, successStatus, revisionTagged)].filter((part) => part !== undefined && part !== "").join("\n\n"),
      protect: rules.credential !== "none",
      requestHeaders: revisionTagged ? rules.requestHeaders.omit({ "If-None-Match": true }) : rules.requestHeaders,
      responseHeaders: successHeaders(kind, route.method, options.responseHeaders),
      successDescription: successStatus === 201 ? "Created." : "OK.",
      errorResponses: errorStatuses,
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

/**
 * A cart mutation: capability or JWT, Idempotency-Key and If-Match; answers the Cart and its ETag.
 * Every one refuses a cart that is no longer OPEN (CART_IMMUTABLE); `conflicts` adds its own 409s.
 */
export const cartMutationMeta = (route: Route, conflicts: readonly StateConflictCode[] = []) =>
  operationMeta("cartMutation", route, { responseHeaders: etagResponseHeaders, conflicts: ["CART_IMMUTABLE", ...conflicts] });

/**
 * A cart-scoped write whose precondition is not the cart revision (reporting a payment, rating):
 * capability or JWT and Idempotency-Key, no If-Match.
 */
export const cartCheckoutMeta = (route: Route, responseHeaders: z.ZodObject, options: { successStatus?: number; conflicts: readonly StateConflictCode[] }) =>
  operationMeta("checkout", route, { responseHeaders, successStatus: options.successStatus ?? 200, conflicts: options.conflicts });

/** A write whose only requirement is the Idempotency-Key (customer sign-in); answers are never cached. */
export const anonymousWriteMeta = (route: Route, errorStatuses: number[], conflicts: readonly StateConflictCode[] = []) =>
  operationMeta("anonymousWrite", route, { responseHeaders: privateResponseHeaders, errorStatuses, conflicts });

/** A read of the signed-in customer's data: bearer customer JWT. */
export const customerReadMeta = (route: Route, errorStatuses?: number[]) => operationMeta("customerRead", route, { responseHeaders: privateResponseHeaders, ...(errorStatuses ? { errorStatuses } : {}) });

/** A write by the signed-in customer: bearer customer JWT and Idempotency-Key. */
export const customerWriteMeta = (route: Route, errorStatuses: number[], options: { successStatus?: number; responseHeaders?: z.ZodObject; conflicts?: readonly StateConflictCode[] } = {}) =>
  operationMeta("customerMutation", route, {
    successStatus: options.successStatus ?? 200,
    responseHeaders: options.responseHeaders ?? privateResponseHeaders,
    errorStatuses,
    conflicts: options.conflicts ?? [],
  });
