import type { IncomingMessage, ServerResponse } from "node:http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { AppError } from "../errors";
import { toAppError } from "../errors-map";
import { appRouter } from "../routers";
import type { RequestContext } from "../app/request-context";
import { jsonText } from "../../db/json-text";
import { logUnexpected } from "./error-response";
import type { RestMatch } from "./rest-routes";

/** A procedure's answer: its status, headers and JSON text, or the AppError it failed with (never serialised and parsed back). */
export type ProcedureOutcome = { ok: true; status: number; headers: Record<string, string>; body: string | undefined } | { ok: false; error: AppError };

type Call = { context: RequestContext; error?: unknown };

/**
 * The bridge to trpc-to-openapi: runs the operation `route` names with an already-read body and the
 * request's context. The adapter is built once; each call is a proxied Request (the adapter accepts
 * a fetch Request in place of IncomingMessage) and a minimal response object that collects the answer.
 */
export function createProcedureRunner() {
  const calls = new WeakMap<object, Call>();
  const openApiHandler = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }) => {
      const call = calls.get(req);
      if (!call) throw new Error("request context missing");
      return call.context;
    },
    onError: ({ error, req }) => {
      const call = calls.get(req);
      if (call) call.error = error;
      logUnexpected(error, call?.context.requestId);
    },
    maxBodySize: undefined,
    // A write's answer was serialised when it was stored under its Idempotency-Key: that text is sent
    // (patches/trpc-to-openapi+3.3.0.patch adds this option).
    serializeBody: jsonText,
    responseMeta: ({ ctx, errors }) => (errors.length > 0 || !ctx ? {} : { status: ctx.response.status, headers: { ...ctx.response.headers } }),
  });

  return async function runProcedure(request: Request, route: RestMatch, path: string, body: unknown, context: RequestContext): Promise<ProcedureOutcome> {
    // The adapter reads one header, content-type, to accept the body it is handed (already read and parsed).
    const headers = { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : request.headers.get(name)) };
    const proxied = new Proxy(request, {
      get(target, property) {
        if (property === "url") return path;
        // HEAD runs the GET operation; the body is dropped on the way out (conditional-get.ts withoutBody).
        if (property === "method") return route.method;
        if (property === "body") return body;
        if (property === "headers") return headers;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const call: Call = { context };
    calls.set(proxied, call);
    const collected = await new Promise<{ status: number; headers: Record<string, string>; body: string | undefined }>((resolve, reject) => {
      const answer = { status: 200, headers: {} as Record<string, string>, body: undefined as string | undefined };
      const response = {
        set statusCode(code: number) {
          answer.status = code;
        },
        get statusCode() {
          return answer.status;
        },
        setHeader(name: string, value: string | string[]) {
          answer.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        },
        end(text?: string) {
          answer.body = text;
          resolve(answer);
        },
      };
      openApiHandler(proxied as unknown as IncomingMessage, response as unknown as ServerResponse).catch(reject);
    });
    if (collected.status < 400) return { ok: true, ...collected };
    // The route was matched before the adapter ran, so its own 404 can only mean a procedure it could not find.
    return { ok: false, error: call.error === undefined ? new AppError("NOT_FOUND", "No operation exists at this path") : toAppError(call.error) };
  };
}
