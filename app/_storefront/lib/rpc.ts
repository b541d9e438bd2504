import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/routers";
import { NETWORK_ERROR, PLATFORM_FAILURE, StorefrontError } from "./errors";

/**
 * The storefront's only way to the API: the typed tRPC client on /api/trpc (never the REST paths).
 *
 * `httpLink`, not `httpBatchLink`: the server has batching off, and each call carries its own
 * headers. Procedures read X-Cart-Token, If-Match and Idempotency-Key from the request, so every
 * call passes them in its operation context (`withHeaders`) and the link copies them onto that
 * one request.
 *
 * The link sees the response's `etag` header, but the proxy client returns only the body; the Cart
 * body carries `revision`, and If-Match is `"cart-<revision>"`, so the client works from that.
 */
export type RequestHeaders = Record<string, string>;

const REQUEST_TIMEOUT_MS = 15_000;

function headersFrom(context: Record<string, unknown>): RequestHeaders {
  const headers = context.headers;
  if (typeof headers !== "object" || headers === null) return {};
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * An answer that is not JSON: a platform's or proxy's error page (a crashed function, a gateway
 * timeout) rather than the service. tRPC would fail to parse it and lose the response, and the
 * customer would be told to check their connection; carrying the status and request id lets the
 * storefront say what happened.
 */
export class NonJsonAnswer extends Error {
  constructor(
    readonly status: number,
    readonly requestId: string | undefined,
  ) {
    super(`the API answered ${status} without JSON`);
  }
}

async function fetchJsonAnswer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (!(response.headers.get("content-type") ?? "").includes("json")) throw new NonJsonAnswer(response.status, response.headers.get("x-request-id") ?? undefined);
  return response;
}

export const rpc = createTRPCClient<AppRouter>({
  links: [httpLink({ url: "/api/trpc", fetch: fetchJsonAnswer, headers: ({ op }) => headersFrom(op.context) })],
});

/** Per-call options: this request's headers, and a timeout so a hung request becomes a retryable error. */
export function withHeaders(headers: RequestHeaders = {}) {
  return { context: { headers }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
}

type AppErrorData = { code: string; message: string; details?: Record<string, unknown> };

function appErrorOf(data: unknown): AppErrorData | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const appError = (data as { appError?: unknown }).appError;
  if (typeof appError !== "object" || appError === null) return undefined;
  const { code, message, details } = appError as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return undefined;
  return { code, message, ...(typeof details === "object" && details !== null ? { details: details as Record<string, unknown> } : {}) };
}

/** The REST-style envelope the RPC route answers with before tRPC runs (rate limit, start-up failure). */
function envelopeOf(json: unknown): AppErrorData | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const { code, message, details } = json as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return undefined;
  return { code, message, ...(typeof details === "object" && details !== null ? { details: details as Record<string, unknown> } : {}) };
}

/** Turns whatever a tRPC call threw into the storefront's one error shape. */
export function toStorefrontError(error: unknown): StorefrontError {
  if (error instanceof StorefrontError) return error;
  if (!(error instanceof TRPCClientError)) {
    return new StorefrontError({ code: NETWORK_ERROR, message: "We could not reach the restaurant. Check your connection and try again.", status: null });
  }
  if (error.cause instanceof NonJsonAnswer) {
    const { status, requestId } = error.cause;
    // A platform's 5xx page says nothing of whether the write ran: like a lost answer, it is retried with
    // the same Idempotency-Key (errors.ts isTransient), which replays the outcome if there was one.
    if (status >= 500) return new StorefrontError({ code: PLATFORM_FAILURE, message: "Something went wrong on our side. Please try again.", status, requestId });
    return new StorefrontError({ code: "UNEXPECTED_ANSWER", message: "The restaurant could not take that request. Please try again.", status, requestId });
  }
  const meta = error.meta as { response?: Response; responseJSON?: unknown } | undefined;
  const response = meta?.response;
  const requestId = response?.headers.get("x-request-id") ?? undefined;
  const data = error.data as { httpStatus?: unknown } | undefined;
  const fromProcedure = appErrorOf(data);
  if (fromProcedure) {
    const status = typeof data?.httpStatus === "number" ? data.httpStatus : (response?.status ?? null);
    return new StorefrontError({ ...fromProcedure, status, requestId });
  }
  const fromEnvelope = envelopeOf(meta?.responseJSON);
  if (fromEnvelope && response) return new StorefrontError({ ...fromEnvelope, status: response.status, requestId });
  if (response) {
    return new StorefrontError({ code: "INTERNAL_ERROR", message: "Something went wrong on our side. Please try again.", status: response.status, requestId });
  }
  return new StorefrontError({ code: NETWORK_ERROR, message: "We could not reach the restaurant. Check your connection and try again.", status: null });
}

/** Runs one RPC call and rethrows its failure as a StorefrontError. */
export async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toStorefrontError(error);
  }
}
