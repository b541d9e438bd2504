import type { AppDeps } from "../app/deps";

/**
 * The credentials a request presents, as its operation's kind reads them (server/trpc/procedures.ts):
 * only those the kind takes, none before the kind has read them. Presented, not verified: the use
 * case verifies them (inside its transaction, after an idempotent replay).
 */
export type PresentedCredential = { cartToken?: string; receiptToken?: string; bearer?: string };

/** What the transport knows about one request; procedures read it, never the raw Request. */
export type RequestContext = {
  requestId: string;
  deps: AppDeps;
  clientIp: string;
  /** Scheme and host the request arrived at, e.g. https://shop.example.com. */
  origin: string;
  /** Lower-cased header lookup over the incoming request: for the transport and the operation kinds, not for services. */
  header: (name: string) => string | undefined;
  credential: PresentedCredential;
  /** Status and headers a procedure wants on its success response (201, ETag, Cache-Control). */
  response: { status: number; headers: Record<string, string> };
};

export function createRequestContext(input: {
  requestId: string;
  deps: AppDeps;
  clientIp: string;
  origin: string;
  headers: Headers;
}): RequestContext {
  return {
    requestId: input.requestId,
    deps: input.deps,
    clientIp: input.clientIp,
    origin: input.origin,
    header: (name) => input.headers.get(name) ?? undefined,
    credential: {},
    response: { status: 200, headers: {} },
  };
}
