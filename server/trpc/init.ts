import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { findUnstorableText } from "../domain/text";
import { validationError, type ErrorCode } from "../errors";
import { toAppError } from "../errors-map";
import type { RequestContext } from "../app/request-context";
import type { OperationKind } from "./operation-kinds";

/**
 * tRPC setup: the request context (server/app/request-context.ts, which services also take), init
 * (here), and the operation kinds (./operation-kinds.ts) that every procedure's meta declares.
 *
 * The error formatter is the only place a tRPC error is shaped. It never exposes tRPC's own
 * message or stack: the typed client gets `data.appError` (code, message, details) and the REST
 * route rebuilds the spec's envelope from the same object.
 */
export type StorefrontMeta = OpenApiMeta<{
  /** What kind of operation this is, which fixes its cross-cutting rules (./operation-kinds.ts); every REST operation has one (server/openapi/document.ts refuses one without). Optional only because trpc-to-openapi types meta as open. */
  kind?: OperationKind;
  /** Success status when it is not 200 (documented in the OpenAPI document too). */
  successStatus?: number;
  /**
   * A GET whose ETag is the resource's revision (a cart's "cart-N", the If-Match token), not a
   * validator of its body: If-None-Match is not evaluated and it always answers 200 (server/routers/meta.ts).
   */
  revisionTagged?: boolean;
  /** The error codes the operation can answer (operation-kinds.ts operationErrorCodes): the document lists them per status. */
  errorCodes?: readonly ErrorCode[];
}>;

const t = initTRPC
  .context<RequestContext>()
  .meta<StorefrontMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        code: shape.code,
        message: appError.message,
        data: {
          code: shape.data.code,
          httpStatus: appError.status,
          path: shape.data.path,
          appError: { code: appError.code, message: appError.message, details: appError.details, headers: appError.headers },
        },
      };
    },
  });

/**
 * Refuses text that Postgres cannot store as sent (NUL, unpaired surrogates) anywhere in the raw
 * input, path and query parameters included, before any procedure parses or stores it. Every
 * procedure's first middleware calls it (./procedures.ts presentRequest).
 */
export function refuseUnstorableText(rawInput: unknown): void {
  const issue = findUnstorableText(rawInput);
  if (issue) throw validationError("Text in the request must be valid Unicode without NUL characters", [issue]);
}

export const router = t.router;
/** Bare: ./procedures.ts builds every procedure from it, with presentRequest first. */
export const procedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;
