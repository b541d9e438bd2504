import type { z } from "zod";
import { codeToStatus, errorCodes, type ErrorCode } from "../errors";
import { cartCheckoutHeaders, cartReadHeaders, cartWriteHeaders, customerReadHeaders, customerWriteHeaders, readHeaders, receiptReadHeaders, writeHeaders } from "../schemas/common";

/**
 * Every operation is one of these kinds, declared once in its procedure's meta (server/routers/meta.ts).
 * A kind fixes the operation's cross-cutting rules: which credential it takes, whether it needs an
 * Idempotency-Key and an If-Match, the request headers it documents and the error statuses it can
 * answer. The OpenAPI document (server/routers/meta.ts, server/openapi/post-process.ts), the access
 * log and the test route table (test/routes.ts) read the kind from the meta; nothing infers it from
 * header names.
 */
export const operationKinds = ["anonymousRead", "anonymousWrite", "cartRead", "cartMutation", "checkout", "receiptRead", "customerRead", "customerMutation"] as const;
export type OperationKind = (typeof operationKinds)[number];

export type Credential = "none" | "cart" | "receipt" | "customer";

/**
 * What each credential accepts, any one of which suffices: the request headers and the security
 * schemes of the OpenAPI document (server/openapi/document.ts) that describe them.
 */
export const credentials: Record<Credential, { headers: readonly string[]; schemes: readonly string[] }> = {
  none: { headers: [], schemes: [] },
  cart: { headers: ["X-Cart-Token", "Authorization"], schemes: ["cartToken", "customerJwt"] },
  receipt: { headers: ["X-Receipt-Token", "Authorization"], schemes: ["receiptToken", "customerJwt"] },
  customer: { headers: ["Authorization"], schemes: ["customerJwt"] },
};

/** Statuses the transport can answer on any operation, whatever the operation declares. */
export const ALWAYS_POSSIBLE_ERROR_STATUSES = [400, 429, 500, 503] as const;

export type KindRules = {
  /** cart: X-Cart-Token or a customer JWT; receipt: X-Receipt-Token or a customer JWT; customer: a customer JWT. */
  credential: Credential;
  idempotencyKey: boolean;
  ifMatch: boolean;
  requestHeaders: z.ZodObject;
  errorStatuses: readonly number[];
  /**
   * A write made with a customer's bearer token that runs in one transaction commits only while the
   * customer's session is live, checked in that transaction with the session row held (FOR SHARE)
   * until the commit, so that no such write commits after a logout has answered. A write that acts at
   * the card processor before its commit (payment session, payment, removing a saved card) is checked
   * before that call and recorded whatever happens to the session during it: its effect has taken
   * place, and refusing it at the commit would answer 401 for a change that was made. A write that
   * only asks the courier for a quote first (set-delivery, validate-and-update) and the phone
   * confirmation read the session again in their commit themselves (cart-preflight.ts,
   * phone-verification.ts). Never for a payment report (checkout), whatever its mode.
   */
  liveSessionAtCommit: boolean;
};

export const kindRules: Record<OperationKind, KindRules> = {
  anonymousRead: { credential: "none", idempotencyKey: false, ifMatch: false, requestHeaders: readHeaders, errorStatuses: [400, 404, 429, 500, 503], liveSessionAtCommit: false },
  anonymousWrite: { credential: "none", idempotencyKey: true, ifMatch: false, requestHeaders: writeHeaders, errorStatuses: [400, 404, 409, 429, 500, 503], liveSessionAtCommit: false },
  cartRead: { credential: "cart", idempotencyKey: false, ifMatch: false, requestHeaders: cartReadHeaders, errorStatuses: [400, 401, 403, 404, 429, 500, 503], liveSessionAtCommit: false },
  cartMutation: { credential: "cart", idempotencyKey: true, ifMatch: true, requestHeaders: cartWriteHeaders, errorStatuses: [400, 401, 403, 404, 409, 428, 429, 500, 503], liveSessionAtCommit: true },
  checkout: { credential: "cart", idempotencyKey: true, ifMatch: false, requestHeaders: cartCheckoutHeaders, errorStatuses: [400, 401, 403, 404, 409, 429, 500, 503], liveSessionAtCommit: false },
  receiptRead: { credential: "receipt", idempotencyKey: false, ifMatch: false, requestHeaders: receiptReadHeaders, errorStatuses: [400, 401, 403, 404, 429, 500, 503], liveSessionAtCommit: false },
  // The customer's own data: nothing to be forbidden or missing unless the read names another resource (meta.ts customerReadMeta).
  customerRead: { credential: "customer", idempotencyKey: false, ifMatch: false, requestHeaders: customerReadHeaders, errorStatuses: [400, 401, 429, 500, 503], liveSessionAtCommit: false },
  customerMutation: { credential: "customer", idempotencyKey: true, ifMatch: false, requestHeaders: customerWriteHeaders, errorStatuses: [400, 401, 403, 404, 409, 429, 500, 503], liveSessionAtCommit: true },
};

/** 409 codes that come from what a use case finds, not from its kind's rules: each operation declares the ones it answers (server/routers/meta.ts). */
export const stateConflictCodes = ["CART_IMMUTABLE", "REQUOTE_REQUIRED", "RESOURCE_CONFLICT"] as const satisfies readonly ErrorCode[];
export type StateConflictCode = (typeof stateConflictCodes)[number];

/** Codes a kind's rule answers, and so only operations of a kind with that rule. */
const ruleCodes: Partial<Record<ErrorCode, (rules: KindRules) => boolean>> = {
  IDEMPOTENCY_KEY_REQUIRED: (rules) => rules.idempotencyKey,
  IDEMPOTENCY_KEY_REUSED: (rules) => rules.idempotencyKey,
  IDEMPOTENCY_IN_PROGRESS: (rules) => rules.idempotencyKey,
  CART_CONFLICT: (rules) => rules.ifMatch,
  PRECONDITION_REQUIRED: (rules) => rules.ifMatch,
};

/** Codes only the transport answers, before (or instead of) choosing an operation. */
const transportOnlyCodes: readonly ErrorCode[] = ["METHOD_NOT_ALLOWED", "REQUEST_HEADERS_TOO_LARGE"];

/**
 * The codes an operation can answer, in the order of `errorCodes`: at each of its error statuses,
 * that status's codes (server/errors.ts codeToStatus) less those of a rule its kind does not have
 * and those of a state conflict it does not declare. The OpenAPI document lists them per operation
 * and status, and the test harness holds every error answer to them (test/openapi-validator.ts).
 */
export function operationErrorCodes(kind: OperationKind, statuses: readonly number[], conflicts: readonly StateConflictCode[]): ErrorCode[] {
  const rules = kindRules[kind];
  const codes = errorCodes.filter((code) => {
    if (!statuses.includes(codeToStatus[code]) || transportOnlyCodes.includes(code)) return false;
    if ((stateConflictCodes as readonly ErrorCode[]).includes(code)) return (conflicts as readonly ErrorCode[]).includes(code);
    return ruleCodes[code]?.(rules) ?? true;
  });
  for (const status of statuses) {
    if (!codes.some((code) => codeToStatus[code] === status)) throw new Error(`a ${kind} operation documents ${status} but no code it could carry there`);
  }
  for (const conflict of conflicts) {
    if (!statuses.includes(codeToStatus[conflict])) throw new Error(`a ${kind} operation declares ${conflict} without its status ${codeToStatus[conflict]}`);
  }
  return codes;
}
