import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import type { AppDeps } from "../app/deps";
import { AppError, codeToStatus, errorCodes, toEnvelope, validationError, type ErrorCode } from "../errors";
import { toAppError } from "../errors-map";
import { appRouter } from "../routers";
import { createRequestContext, type RequestContext } from "../trpc/context";
import { clientIp } from "./client-ip";
import { corsAllowlist, corsHeaders, isAllowedOrigin, preflightHeaders } from "./cors";
import { logRequest, presentedPrincipal } from "./access-log";
import { applyRateLimit } from "./rate-limit";
import { assertJsonContentType, parseJsonBytes, readBoundedBytes } from "./json-body";
import { newRequestId } from "./request-id";
import { requestsRevalidation } from "./response-cache";
import { restRouteName } from "./route-table";
import { matchRestRoute, type RestMatch } from "./rest-routes";
import { logger } from "../log";

export const REST_PREFIX = "/api/v1/storefront";

/** Query parameters that look like credentials. Credentials belong in headers; we refuse, never honour, these. */
const CREDENTIAL_QUERY_KEYS = new Set([
  "token",
  "access_token",
  "accesstoken",
  "carttoken",
  "cart_token",
  "x-cart-token",
  "cartaccesstoken",
  "receipttoken",
  "receipt_token",
  "x-receipt-token",
  "authorization",
  "bearer",
  "jwt",
  "clientsecret",
  "client_secret",
  "api_key",
  "apikey",
]);

type HandlerResult = { status: number; headers: Record<string, string>; body: string | undefined };

/**
 * The REST transport: request id, CORS, rate limit, body checks, then the trpc-to-openapi handler
 * (built once), then the spec's envelope for every error. Nothing here knows about carts or menus.
 */
export function createRestHandler(getDeps: () => Promise<AppDeps>) {
  const contexts = new WeakMap<object, RequestContext>();
  const openApiHandler = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }) => {
      const context = contexts.get(req);
      if (!context) throw new Error("request context missing");
      return context;
    },
    onError: ({ error, ctx }) => logUnexpected(error, ctx?.requestId),
    maxBodySize: undefined,
    responseMeta: ({ ctx, errors }) => (errors.length > 0 || !ctx ? {} : { status: ctx.response.status, headers: { ...ctx.response.headers } }),
  });

  async function runProcedure(request: Request, route: RestMatch, path: string, body: unknown, context: RequestContext): Promise<HandlerResult> {
    const headers = new Headers(request.headers);
    headers.set("content-type", "application/json");
    const proxied = new Proxy(request, {
      get(target, property) {
        if (property === "url") return path;
        // HEAD runs the GET operation; the body is dropped on the way out (see `handle`).
        if (property === "method") return route.method;
        if (property === "body") return body;
        if (property === "headers") return headers;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    contexts.set(proxied, context);
    return new Promise<HandlerResult>((resolve, reject) => {
      const collected: HandlerResult = { status: 200, headers: {}, body: undefined };
      const response = {
        set statusCode(code: number) {
          collected.status = code;
        },
        get statusCode() {
          return collected.status;
        },
        setHeader(name: string, value: string | string[]) {
          collected.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        },
        end(text?: string) {
          collected.body = text;
          resolve(collected);
        },
      };
      // The adapter accepts a fetch Request in place of IncomingMessage (it checks `instanceof Request`).
      openApiHandler(proxied as unknown as IncomingMessage, response as unknown as ServerResponse).catch(reject);
    });
  }

  async function serve(request: Request, requestId: string, url: URL): Promise<Response> {
    const origin = request.headers.get("origin");
    const baseHeaders: Record<string, string> = { "X-Request-Id": requestId };

    const deps = await depsOrErrorResponse(getDeps, requestId, { ...baseHeaders, Vary: "Origin" });
    if (deps instanceof Response) return deps;
    const allowlist = corsAllowlist(deps.env);
    Object.assign(baseHeaders, corsHeaders(origin, allowlist));

    if (request.method === "OPTIONS") {
      if (!isAllowedOrigin(origin, allowlist)) {
        return errorResponse(new AppError("FORBIDDEN", "This origin is not allowed"), requestId, baseHeaders);
      }
      return new Response(null, { status: 204, headers: { "X-Request-Id": requestId, ...preflightHeaders(origin) } });
    }

    const limited = await applyRateLimit(deps, clientIp(request.headers, deps.env));
    Object.assign(baseHeaders, limited.headers);
    if (limited.error) return errorResponse(limited.error, requestId, baseHeaders);

    try {
      for (const key of url.searchParams.keys()) {
        if (CREDENTIAL_QUERY_KEYS.has(key.toLowerCase())) {
          throw validationError("Credentials must be sent in headers, never in the query string", [
            { path: `query.${key}`, message: "credential in query string" },
          ]);
        }
      }
      // The URL parser resolves dot segments, so `/api/v1/storefront/../x` arrives here outside the prefix.
      if (!url.pathname.startsWith(`${REST_PREFIX}/`)) throw new AppError("NOT_FOUND", "No operation exists at this path");
      const route = matchRestRoute(request.method, url.pathname.slice(REST_PREFIX.length));
      const cacheKey = publicReadKey(request, url);
      if (cacheKey !== undefined && !requestsRevalidation(request.headers)) {
        const cached = deps.responseCache.get(cacheKey);
        if (cached) return conditionalResponse(request, cached.body, { ...cached.headers, ...baseHeaders });
      }
      const body = await readJsonBody(request, deps.env.MAX_BODY_BYTES);
      const context = createRequestContext({ requestId, deps, clientIp: clientIp(request.headers, deps.env), origin: url.origin, headers: request.headers });
      const result = await runProcedure(request, route, route.canonicalPath + url.search, body, context);

      if (result.status >= 400) {
        return errorResponse(errorFromAdapterBody(result), requestId, baseHeaders);
      }
      if (route.method !== "GET") {
        // The adapter's header names are lower-case; the same spelling here lets its content-type replace
        // ours instead of both being sent ("application/json, application/json").
        return new Response(result.body ?? null, { status: result.status, headers: { "content-type": "application/json", ...result.headers, ...baseHeaders } });
      }
      const representation = { body: result.body ?? "", headers: representationHeaders(request, result.body ?? "", result.headers) };
      if (cacheKey !== undefined && representation.headers["cache-control"]?.startsWith("public")) deps.responseCache.set(cacheKey, representation);
      return conditionalResponse(request, representation.body, { ...representation.headers, ...baseHeaders });
    } catch (error) {
      return errorResponse(toAppError(error), requestId, baseHeaders);
    }
  }

  return async function handle(request: Request): Promise<Response> {
    const startedAt = performance.now();
    const requestId = newRequestId();
    const url = new URL(request.url);
    let status = 500;
    try {
      const response = await serve(request, requestId, url);
      status = response.status;
      return request.method === "HEAD" ? await withoutBody(response) : response;
    } finally {
      const name = restRouteName(request.method, url.pathname.slice(REST_PREFIX.length));
      logRequest({ requestId, transport: "rest", method: request.method, name, status, startedAt, headers: request.headers });
    }
  };
}

/**
 * Reads the JSON body with a size limit. An empty body is `{}`; anything else must be a JSON object.
 * GET and HEAD bodies mean nothing (RFC 9110 §9.3.1) and are not read. A DELETE takes no members:
 * no body or `{}`, and anything else is refused rather than ignored.
 */
async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes.byteLength === 0) return request.method === "DELETE" ? undefined : {};
  assertJsonContentType(request.headers.get("content-type"));
  const parsed = parseJsonBytes(bytes);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw validationError("The request body must be a JSON object", [{ path: "body", message: "expected a JSON object" }]);
  }
  if (request.method === "DELETE") {
    const members = Object.keys(parsed);
    if (members.length > 0) throw validationError("This operation takes no body: send {} or nothing", members.slice(0, 10).map((member) => ({ path: `body.${member}`, message: "unexpected member" })));
    return undefined;
  }
  return parsed;
}

/** A HEAD answer: the GET answer's status and headers, its length, and no body (RFC 9110 §9.3.2). */
async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.body !== null && !headers.has("content-length")) headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, headers });
}

/** The adapter's error bodies carry our formatter's `data.appError`; rebuild the error from it. */
function errorFromAdapterBody(result: HandlerResult): AppError {
  try {
    const parsed = JSON.parse(result.body ?? "{}") as { data?: { appError?: { code?: string; message?: string; details?: Record<string, unknown>; headers?: Record<string, string> } } };
    const app = parsed.data?.appError;
    if (app?.code && (errorCodes as readonly string[]).includes(app.code) && app.message) {
      return new AppError(app.code as ErrorCode, app.message, { details: app.details, headers: app.headers });
    }
  } catch {
    // fall through to a generic error for the status
  }
  return result.status === 404 ? new AppError("NOT_FOUND", "No operation exists at this path and method") : toAppError(undefined);
}

/** Unexpected failures are logged with their cause; the client sees only the masked envelope. */
export function logUnexpected(error: unknown, requestId: string | undefined): void {
  const appError = toAppError(error);
  if (appError.status >= 500) logger.error({ requestId, code: appError.code, err: appError.cause ?? error }, "request failed");
}

/**
 * The process's dependencies for one request, or, when they cannot start (no database, invalid
 * configuration), the error envelope to answer with. Every route handler begins with this.
 */
export async function depsOrErrorResponse(getDeps: () => Promise<AppDeps>, requestId: string, headers: Record<string, string> = {}): Promise<AppDeps | Response> {
  try {
    return await getDeps();
  } catch (error) {
    return errorResponse(toAppError(error), requestId, headers);
  }
}

export function errorResponse(error: AppError, requestId: string, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(toEnvelope(error, requestId)), {
    status: codeToStatus[error.code],
    headers: {
      ...headers,
      ...error.headers,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
  });
}

/** A GET without credentials may be answered from (and stored in) the response cache; the key names the representation. */
function publicReadKey(request: Request, url: URL): string | undefined {
  if ((request.method !== "GET" && request.method !== "HEAD") || presentedPrincipal(request.headers) !== "anonymous") return undefined;
  // The origin is part of it: /redirect answers with links on the host the request arrived at.
  return `${url.origin}${url.pathname}${url.search}`;
}

/**
 * A GET's own headers: a strong validator over the body unless the procedure chose its own ETag
 * (carts use their revision), and who may cache it.
 */
function representationHeaders(request: Request, body: string, procedureHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", ...procedureHeaders };
  headers.etag ??= `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  // Anything read with a credential is private, whatever the procedure forgot to say.
  headers["cache-control"] ??= presentedPrincipal(request.headers) === "anonymous" ? "public, max-age=30, stale-while-revalidate=60" : "private, no-store";
  return headers;
}

/** 304 when If-None-Match already holds the representation's ETag, else the representation. */
function conditionalResponse(request: Request, body: string, headers: Record<string, string>): Response {
  const etag = headers.etag ?? "";
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""))) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}
