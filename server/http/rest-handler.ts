import type { AppDeps } from "../app/deps";
import { AppError } from "../errors";
import { toAppError } from "../errors-map";
import { createRequestContext } from "../app/request-context";
import { logRequest } from "./access-log";
import { clientIp } from "./client-ip";
import { publicReadKey, readAnswer, representationHeaders } from "./conditional-get";
import { corsAllowlist, corsHeaders, isAllowedOrigin, preflightHeaders } from "./cors";
import { refuseCredentialsInQuery } from "./credential-query";
import { errorAnswer, startDeps } from "./error-response";
import { readRestBody, refusePathMembers } from "./json-body";
import { createProcedureRunner } from "./openapi-bridge";
import { applyRateLimit } from "./rate-limit";
import { newRequestId } from "./request-id";
import { requestOrigin } from "./request-origin";
import { requestsRevalidation } from "./response-cache";
import { restAnswer, toResponse, withoutBody, type RestAnswer } from "./rest-answer";
import { matchRestRoute, type RestMatch } from "./rest-routes";
import { restRouteName, type RouteName } from "./route-table";

export const REST_PREFIX = "/api/v1/storefront";

/**
 * The REST transport: request id, CORS, rate limit, body checks, then the trpc-to-openapi handler
 * (built once), then the spec's envelope for every error. Nothing here knows about carts or menus.
 * It answers with plain data (rest-answer.ts): `npm start`'s own mount writes that to the socket,
 * Next's route sends it as a Response (createRestHandler).
 */
export function createRestAnswerer(getDeps: () => Promise<AppDeps>) {
  const runProcedure = createProcedureRunner();

  /** `matched` hears the operation once it is known, so that the access log does not match the path again. */
  async function serve(request: Request, requestId: string, url: URL, matched: (route: RestMatch) => void): Promise<RestAnswer> {
    const origin = request.headers.get("origin");
    const baseHeaders: Record<string, string> = { "X-Request-Id": requestId };

    const started = await startDeps(getDeps);
    if (!started.ok) return errorAnswer(started.error, requestId, { ...baseHeaders, Vary: "Origin" });
    const { deps } = started;
    const allowlist = corsAllowlist(deps.env);
    Object.assign(baseHeaders, corsHeaders(origin, allowlist));

    if (request.method === "OPTIONS") {
      if (!isAllowedOrigin(origin, allowlist)) {
        return errorAnswer(new AppError("FORBIDDEN", "This origin is not allowed"), requestId, baseHeaders);
      }
      return restAnswer(204, { "X-Request-Id": requestId, ...preflightHeaders(origin) }, null);
    }

    const limited = await applyRateLimit(deps, clientIp(request.headers, deps.env));
    Object.assign(baseHeaders, limited.headers);
    if (limited.error) return errorAnswer(limited.error, requestId, baseHeaders);

    try {
      refuseCredentialsInQuery(url.searchParams);
      // The URL parser resolves dot segments, so `/api/v1/storefront/../x` arrives here outside the prefix.
      if (!url.pathname.startsWith(`${REST_PREFIX}/`)) throw new AppError("NOT_FOUND", "No operation exists at this path");
      const route = matchRestRoute(request.method, url.pathname.slice(REST_PREFIX.length));
      matched(route);
      const cacheKey = publicReadKey(request, url);
      if (cacheKey !== undefined && !requestsRevalidation(request.headers)) {
        const cached = deps.responseCache.get(cacheKey);
        if (cached) return readAnswer(request, cached.body, { ...cached.headers, ...baseHeaders }, route.conditional);
      }
      const body = await readRestBody(request, deps.env.MAX_BODY_BYTES);
      refusePathMembers(body, route.pathParameters);
      const context = createRequestContext({ requestId, deps, clientIp: clientIp(request.headers, deps.env), origin: requestOrigin(request, url), headers: request.headers });
      const result = await runProcedure(request, route, route.canonicalPath + url.search, body, context);
      if (!result.ok) return errorAnswer(result.error, requestId, baseHeaders);
      if (route.method !== "GET") {
        // The adapter's header names are lower-case; the same spelling here lets its content-type replace
        // ours instead of both being sent ("application/json, application/json").
        return restAnswer(result.status, { "content-type": "application/json", ...result.headers, ...baseHeaders }, result.body ?? null);
      }
      const representation = { body: result.body ?? "", headers: representationHeaders(request, result.body ?? "", result.headers) };
      if (cacheKey !== undefined && representation.headers["cache-control"]?.startsWith("public")) deps.responseCache.set(cacheKey, representation);
      return readAnswer(request, representation.body, { ...representation.headers, ...baseHeaders }, route.conditional);
    } catch (error) {
      return errorAnswer(toAppError(error), requestId, baseHeaders);
    }
  }

  return async function answer(request: Request): Promise<RestAnswer> {
    const startedAt = performance.now();
    const requestId = newRequestId();
    const url = new URL(request.url);
    let status = 500;
    let name: RouteName | undefined;
    try {
      const answered = await serve(request, requestId, url, (route) => {
        name = { route: route.template, procedure: route.procedure, kind: route.kind };
      });
      status = answered.status;
      return request.method === "HEAD" ? withoutBody(answered) : answered;
    } finally {
      name ??= restRouteName(request.method, url.pathname.slice(REST_PREFIX.length));
      logRequest({ requestId, transport: "rest", method: request.method, name, status, startedAt, headers: request.headers });
    }
  };
}

/** The REST transport as a fetch handler: Next's route (and the in-process tests) call this. */
export function createRestHandler(getDeps: () => Promise<AppDeps>) {
  const answer = createRestAnswerer(getDeps);
  return async function handle(request: Request): Promise<Response> {
    return toResponse(await answer(request));
  };
}
