import { logger } from "../log";
import type { RouteName } from "./route-table";

/**
 * What kind of credential a request presented (not whether it proved valid: the status says that).
 * Order as in cart access: a cart token is checked before a bearer token.
 */
export type PrincipalKind = "anonymous" | "cart" | "customer" | "receipt";

export function presentedPrincipal(headers: Headers): PrincipalKind {
  if (headers.has("x-cart-token")) return "cart";
  if (headers.has("authorization")) return "customer";
  if (headers.has("x-receipt-token")) return "receipt";
  return "anonymous";
}

export type AccessEntry = {
  requestId: string;
  transport: "rest" | "rpc";
  method: string;
  name: RouteName;
  status: number;
  /** performance.now() when the request arrived. */
  startedAt: number;
  headers: Headers;
};

/**
 * One line per request. Built from an explicit list of fields, never from headers, bodies or the
 * raw URL, so no token, code, client secret or card detail can reach it.
 */
export function logRequest(entry: AccessEntry): void {
  const failed = entry.status >= 500;
  // With info lines off (LOG_LEVEL=warn), only a failure is written: the line is not built for nothing.
  if (!failed && !logger.isLevelEnabled("info")) return;
  const line = {
    requestId: entry.requestId,
    transport: entry.transport,
    method: entry.method,
    route: entry.name.route,
    procedure: entry.name.procedure,
    kind: entry.name.kind,
    status: entry.status,
    latencyMs: Math.round((performance.now() - entry.startedAt) * 10) / 10,
    principal: presentedPrincipal(entry.headers),
  };
  if (failed) logger.warn(line, "request");
  else logger.info(line, "request");
}
