import type { z } from "zod";
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
  customerRead: { credential: "customer", idempotencyKey: false, ifMatch: false, requestHeaders: customerReadHeaders, errorStatuses: [400, 401, 403, 404, 429, 500, 503], liveSessionAtCommit: false },
  customerMutation: { credential: "customer", idempotencyKey: true, ifMatch: false, requestHeaders: customerWriteHeaders, errorStatuses: [400, 401, 403, 404, 409, 429, 500, 503], liveSessionAtCommit: true },
};
