import type { AppDeps } from "../app/deps";
import { AppError } from "../errors";
import { toAppError } from "../errors-map";
import { createRequestContext } from "../app/request-context";
import { logRequest } from "./access-log";
import { clientIp } from "./client-ip";
import { publicReadKey, readResponse, representationHeaders, withoutBody } from "./conditional-get";
import { corsAllowlist, corsHeaders, isAllowedOrigin, preflightHeaders } from "./cors";
import { refuseCredentialsInQuery } from "./credential-query";
import { depsOrErrorResponse, errorResponse } from "./error-response";
import { readRestBody, refusePathMembers } from "./json-body";
import { createProcedureRunner } from "./openapi-bridge";
import { applyRateLimit } from "./rate-limit";
import { newRequestId } from "./request-id";
import { requestOrigin } from "./request-origin";
import { requestsRevalidation } from "./response-cache";
import { matchRestRoute } from "./rest-routes";
import { restRouteName } from "./route-table";

export const REST_PREFIX = "/api/v1/storefront";

/**
 * The REST transport: request id, CORS, rate limit, body checks, then the trpc-to-openapi handler
 * (built once), then the spec's envelope for every error. Nothing here knows about carts or menus.
 */
export function createRestHandler(getDeps: () => Promise<AppDeps>) {
  const runProcedure = createProcedureRunner();

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
      refuseCredentialsInQuery(url.searchParams);
      // The URL parser resolves dot segments, so `/api/v1/storefront/../x` arrives here outside the prefix.
      if (!url.pathname.startsWith(`${REST_PREFIX}/`)) throw new AppError("NOT_FOUND", "No operation exists at this path");
      const route = matchRestRoute(request.method, url.pathname.slice(REST_PREFIX.length));
      const cacheKey = publicReadKey(request, url);
      if (cacheKey !== undefined && !requestsRevalidation(request.headers)) {
        const cached = deps.responseCache.get(cacheKey);
        if (cached) return readResponse(request, cached.body, { ...cached.headers, ...baseHeaders }, route.conditional);
      }
      const body = await readRestBody(request, deps.env.MAX_BODY_BYTES);
      refusePathMembers(body, route.pathParameters);
      const context = createRequestContext({ requestId, deps, clientIp: clientIp(request.headers, deps.env), origin: requestOrigin(request, url), headers: request.headers });
      const result = await runProcedure(request, route, route.canonicalPath + url.search, body, context);
      if (!result.ok) return errorResponse(result.error, requestId, baseHeaders);
      if (route.method !== "GET") {
        // The adapter's header names are lower-case; the same spelling here lets its content-type replace
        // ours instead of both being sent ("application/json, application/json").
        return new Response(result.body ?? null, { status: result.status, headers: { "content-type": "application/json", ...result.headers, ...baseHeaders } });
      }
      const representation = { body: result.body ?? "", headers: representationHeaders(request, result.body ?? "", result.headers) };
      if (cacheKey !== undefined && representation.headers["cache-control"]?.startsWith("public")) deps.responseCache.set(cacheKey, representation);
      return readResponse(request, representation.body, { ...representation.headers, ...baseHeaders }, route.conditional);
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
