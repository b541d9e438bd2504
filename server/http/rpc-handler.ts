import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { AppDeps } from "../app/deps";
import { toAppError } from "../errors-map";
import { appRouter } from "../routers";
import { createRequestContext } from "../app/request-context";
import { clientIp } from "./client-ip";
import { logRequest } from "./access-log";
import { applyRateLimit } from "./rate-limit";
import { depsOrErrorResponse, errorResponse, logUnexpected } from "./error-response";
import { assertJsonContentType, assertJsonDepth, assertNoContentCoding, parseJsonBytes, readBoundedBytes } from "./json-body";
import { requestOrigin } from "./request-origin";
import { newRequestId } from "./request-id";
import { rpcRouteName } from "./route-table";

const ENDPOINT = "/api/trpc";

/**
 * Typed RPC for the first-party storefront, at /api/trpc: the same procedures, rate limit, request
 * ids and error codes as REST (the typed client reads `error.data.appError`). Same-origin only, so
 * no CORS here.
 */
export function createRpcHandler(getDeps: () => Promise<AppDeps>) {
  async function serve(request: Request, requestId: string): Promise<Response> {
    const deps = await depsOrErrorResponse(getDeps, requestId);
    if (deps instanceof Response) return deps;
    const ip = clientIp(request.headers, deps.env);
    const limited = await applyRateLimit(deps, ip);
    if (limited.error) return errorResponse(limited.error, requestId, limited.headers);
    let bounded: Request;
    try {
      bounded = await boundedRpcRequest(request, deps.env.MAX_BODY_BYTES);
    } catch (error) {
      return errorResponse(toAppError(error), requestId, limited.headers);
    }
    const context = createRequestContext({ requestId, deps, clientIp: ip, origin: requestOrigin(request, new URL(request.url)), headers: request.headers });
    return fetchRequestHandler({
      endpoint: ENDPOINT,
      req: bounded,
      router: appRouter,
      allowBatching: false,
      createContext: () => context,
      onError: ({ error }) => logUnexpected(error, requestId),
      responseMeta: ({ errors }) => {
        const first = errors[0];
        if (first) {
          const error = toAppError(first);
          return { status: error.status, headers: { ...limited.headers, ...error.headers, "X-Request-Id": requestId } };
        }
        return { status: context.response.status, headers: { ...limited.headers, ...context.response.headers, "X-Request-Id": requestId } };
      },
    });
  }

  /**
   * The same limits as REST before tRPC reads anything: at most MAX_BODY_BYTES of body, UTF-8 JSON,
   * and no nesting past MAX_JSON_DEPTH in the body or in a query's `input` parameter.
   */
  async function boundedRpcRequest(request: Request, maxBytes: number): Promise<Request> {
    const input = new URL(request.url).searchParams.get("input");
    if (input !== null) assertJsonDepth(input, "query.input");
    if (request.method !== "POST") return request;
    const bytes = await readBoundedBytes(request, maxBytes);
    if (bytes.byteLength > 0) {
      assertJsonContentType(request.headers.get("content-type"));
      assertNoContentCoding(request.headers.get("content-encoding"));
      parseJsonBytes(bytes);
    }
    return new Request(request.url, { method: request.method, headers: request.headers, body: bytes.byteLength > 0 ? bytes : null, signal: request.signal });
  }

  return async function handle(request: Request): Promise<Response> {
    const startedAt = performance.now();
    const requestId = newRequestId();
    let status = 500;
    try {
      const response = await serve(request, requestId);
      status = response.status;
      return response;
    } finally {
      const name = rpcRouteName(new URL(request.url).pathname, ENDPOINT);
      logRequest({ requestId, transport: "rpc", method: request.method, name, status, startedAt, headers: request.headers });
    }
  };
}
