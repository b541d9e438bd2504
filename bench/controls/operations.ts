import type { Tx } from "../../db/client";
import type { AppDeps } from "../../server/app/deps";
import type { FulfilmentMethod } from "../../server/domain/catalog-types";
import { parseIfMatch } from "../../server/domain/etag";
import { AppError } from "../../server/errors";
import { toAppError } from "../../server/errors-map";
import { newRequestId } from "../../server/http/request-id";
import { addItem, type AddItemInput } from "../../server/services/cart-operations";
import { getMenus } from "../../server/services/catalog";
import { createOrderingSession, getCart } from "../../server/services/carts";
import { cartReadAhead, keptVersionOf } from "../../server/services/cart-access";
import { readSessionAhead } from "../../server/services/customers/principal";
import { idempotentRequest, runIdempotent } from "../../server/services/idempotency";
import { locationReadAhead } from "../../server/services/locations";
import type { CartMutationContext, TransactionalWrite } from "../../server/services/operation-context";
import { createRequestContext, type RequestContext } from "../../server/app/request-context";

/**
 * The benchmark's controls: the same service calls the REST facade makes, with none of its
 * transport (no tRPC, no trpc-to-openapi, no input/output validation, no rate limit, no envelope).
 * Both controls (bare node:http and the plain Next.js route) run exactly this code, so the
 * difference between them is the Next.js request pipeline, and the difference between the plain
 * route and the REST facade is our transport.
 *
 * URLs (bench/controls/prefix.ts): /api/bench/{operation}?locationId=...[&cartId=...]
 *   GET  menus             -> getMenus
 *   POST ordering-session  -> createOrderingSession (body { fulfillmentMethod }, Idempotency-Key)
 *   POST add-item          -> addItem (body as the REST operation, X-Cart-Token, If-Match, Idempotency-Key)
 *   GET  cart              -> getCart (X-Cart-Token)
 */
export type ControlRequest = {
  method: string;
  operation: string;
  query: URLSearchParams;
  headers: Headers;
  bodyText: string;
  clientIp: string;
  origin: string;
};

export type ControlResponse = { status: number; headers: Record<string, string>; body: string };

type Operation = { method: "GET" | "POST"; run: (ctx: RequestContext, query: URLSearchParams, body: Record<string, unknown>) => Promise<unknown> };

/**
 * A write as its operation's kind runs it (server/trpc/procedures.ts), without tRPC: the
 * Idempotency-Key's transaction around the use case, with the use case's first read (and the
 * customer's session, when that is the credential) sent with the key's claim, and the answer stored
 * with it.
 */
async function underKey<T>(
  ctx: RequestContext,
  operation: string,
  input: unknown,
  status: number,
  firstRead: (tx: Tx) => void,
  write: (ctx: TransactionalWrite) => Promise<T>,
): Promise<T> {
  const parsed = parseIfMatch(ctx.header("if-match"));
  const expectedRevision = parsed.kind === "revision" ? parsed.revision : undefined;
  const request = await idempotentRequest(ctx, { operation, input, key: ctx.header("idempotency-key"), ifMatch: ctx.header("if-match") });
  const alongsideClaim = (tx: Tx) => {
    firstRead(tx);
    readSessionAhead(ctx, tx);
  };
  const outcome = await runIdempotent(
    ctx.deps,
    request,
    async (tx) => {
      const body = await write({ ...ctx, tx, expectedRevision });
      return { body, status, headers: { ...ctx.response.headers } };
    },
    alongsideClaim,
  );
  ctx.response.status = outcome.status;
  Object.assign(ctx.response.headers, outcome.headers);
  return outcome.body;
}

function cartMutationContext(ctx: TransactionalWrite): CartMutationContext {
  if (ctx.expectedRevision === undefined) throw new AppError("PRECONDITION_REQUIRED", "send If-Match");
  return { ...ctx, expectedRevision: ctx.expectedRevision };
}

// Inputs are taken as sent, unvalidated: validation is part of what the facade costs, and the
// services still check everything that matters for correctness (ids, credentials, modifiers).
const operations: Record<string, Operation> = {
  menus: { method: "GET", run: (ctx, query) => getMenus(ctx, { locationId: query.get("locationId") ?? "" }) },
  "ordering-session": {
    method: "POST",
    run: (ctx, query, body) => {
      const input = { locationId: query.get("locationId") ?? "", fulfillmentMethod: body.fulfillmentMethod as FulfilmentMethod };
      const locationRead = (tx: Tx) => locationReadAhead.send(tx, input.locationId);
      return underKey(ctx, "carts.createOrderingSession", input, 201, locationRead, (write) => createOrderingSession(write, input));
    },
  },
  "add-item": {
    method: "POST",
    run: (ctx, query, body) => {
      const ids = { locationId: query.get("locationId") ?? "", cartId: query.get("cartId") ?? "" };
      const item: AddItemInput = {
        productId: body.productId as string,
        quantity: body.quantity as number,
        selections: (body.selections ?? []) as AddItemInput["selections"],
        itemUnavailableAction: "remove_item",
        specialInstructions: body.specialInstructions as string | undefined,
      };
      const cartRead = (tx: Tx) => cartReadAhead.send(tx, ids.locationId, ids.cartId, keptVersionOf(ctx, ids.cartId));
      return underKey(ctx, "carts.addItem", { ...ids, ...item }, 200, cartRead, (write) => addItem(cartMutationContext(write), ids, item));
    },
  },
  cart: { method: "GET", run: (ctx, query) => getCart(ctx, { locationId: query.get("locationId") ?? "", cartId: query.get("cartId") ?? "" }) },
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): ControlResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

export async function runControlOperation(deps: AppDeps, request: ControlRequest): Promise<ControlResponse> {
  const operation = operations[request.operation];
  if (!operation) return json(404, { code: "NOT_FOUND", message: "unknown bench operation" });
  if (request.method !== operation.method) return json(405, { code: "METHOD_NOT_ALLOWED", message: `use ${operation.method}` });
  const created = createRequestContext({ requestId: newRequestId(), deps, clientIp: request.clientIp, origin: request.origin, headers: request.headers });
  const credential = { ...(request.headers.get("x-cart-token") ? { cartToken: request.headers.get("x-cart-token") ?? "" } : {}), ...(request.headers.get("authorization") ? { bearer: request.headers.get("authorization") ?? "" } : {}) };
  const ctx: RequestContext = { ...created, credential };
  try {
    const body = request.bodyText === "" ? {} : (JSON.parse(request.bodyText) as Record<string, unknown>);
    const result = await operation.run(ctx, request.query, body);
    return json(ctx.response.status, result, ctx.response.headers);
  } catch (error) {
    const appError = toAppError(error);
    return json(appError.status, { code: appError.code, message: appError.message }, appError.headers);
  }
}
