import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { toAppError } from "../errors-map";
import type { RequestContext } from "./context";

/**
 * tRPC setup in three parts: context (./context.ts), init (here), procedures (./procedures.ts).
 *
 * The error formatter is the only place a tRPC error is shaped. It never exposes tRPC's own
 * message or stack: the typed client gets `data.appError` (code, message, details) and the REST
 * route rebuilds the spec's envelope from the same object.
 */
export type StorefrontMeta = OpenApiMeta<{
  /** Success status when it is not 200 (documented in the OpenAPI document too). */
  successStatus?: number;
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

export const router = t.router;
export const procedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
