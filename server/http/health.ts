import type { AppDeps } from "../app/deps";
import { toEnvelope, AppError } from "../errors";
import { newRequestId } from "./request-id";

const NO_STORE = { "Content-Type": "application/json", "Cache-Control": "no-store" };

/** GET /api/health: liveness. The process answers; no dependency is asked (a load balancer restarting instances for a database outage would only add to it). */
export function healthResponse(): Response {
  const requestId = newRequestId();
  return new Response(JSON.stringify({ status: "ok" }), { status: 200, headers: { ...NO_STORE, "X-Request-Id": requestId } });
}

type CheckResult = "ok" | "unavailable";

/** A probe that does not answer within this time counts as down (load balancers probe every few seconds). */
const PROBE_TIMEOUT_MS = 2_000;

async function probe(check: () => Promise<boolean>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    return (await Promise.race([check().catch(() => false), timeout])) ? "ok" : "unavailable";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/ready: readiness. The database answers a ping, and the rate limiter decides a request
 * (on a key of its own, never a client's). 200 `{ status: "ready", checks }` or 503 with the
 * error envelope (`DEPENDENCY_UNAVAILABLE`, `details.checks`).
 *
 * A limiter that cannot decide makes the instance unready only under RATE_LIMIT_ON_ERROR=deny,
 * where it would refuse every request anyway. Under `allow` (the default) the service keeps
 * serving without a rate limit, by the operator's choice, so the answer is 200 with
 * `status: "degraded"`: taking every instance out of the load balancer because Redis is down would
 * turn that choice into an outage.
 */
export async function readinessResponse(getDeps: () => Promise<AppDeps>): Promise<Response> {
  const requestId = newRequestId();
  const headers = { ...NO_STORE, "X-Request-Id": requestId };
  let deps: AppDeps;
  try {
    deps = await getDeps();
  } catch {
    return unavailable(requestId, headers, "The service could not start its dependencies", { startup: "unavailable" });
  }
  const [database, rateLimiter] = await Promise.all([
    probe(async () => {
      await deps.database.ping();
      return true;
    }),
    probe(async () => (await deps.rateLimiter.check("readiness-probe")).kind !== "unknown"),
  ]);
  const checks = { database, rateLimiter };
  if (database !== "ok" || (rateLimiter !== "ok" && deps.env.RATE_LIMIT_ON_ERROR === "deny")) {
    return unavailable(requestId, headers, "A dependency of the service is unavailable", checks);
  }
  return new Response(JSON.stringify({ status: rateLimiter === "ok" ? "ready" : "degraded", checks }), { status: 200, headers });
}

function unavailable(requestId: string, headers: Record<string, string>, message: string, checks: Record<string, CheckResult>): Response {
  const error = new AppError("DEPENDENCY_UNAVAILABLE", message, { details: { checks } });
  return new Response(JSON.stringify(toEnvelope(error, requestId)), { status: 503, headers: { ...headers, "Retry-After": "5" } });
}
