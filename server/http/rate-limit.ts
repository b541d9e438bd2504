import type { AppDeps } from "../app/deps";
import { AppError, dependencyUnavailable } from "../errors";

/**
 * Applies the per-IP limit. Headers only ever carry numbers the limiter really returned. When the
 * limiter cannot answer (store down or slower than RATE_LIMIT_TIMEOUT_MS) the configured policy
 * decides: "allow" (default) serves the request without rate-limit headers, "deny" answers 503.
 */
export async function applyRateLimit(deps: AppDeps, ip: string): Promise<{ headers: Record<string, string>; error?: AppError }> {
  const decision = await deps.rateLimiter.check(`ip:${ip}`);
  if (decision.kind === "unknown") {
    return deps.env.RATE_LIMIT_ON_ERROR === "deny" ? { headers: {}, error: dependencyUnavailable("The rate limiter") } : { headers: {} };
  }
  const resetSeconds = Math.ceil(decision.resetAtMs / 1000);
  const headers = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(resetSeconds),
  };
  if (decision.kind === "allowed") return { headers };
  const retryAfter = Math.max(1, Math.ceil((decision.retryAtMs - deps.now().getTime()) / 1000));
  return {
    headers,
    error: new AppError("RATE_LIMITED", "Too many requests from this address; retry in Retry-After seconds", {
      headers: { "Retry-After": String(retryAfter) },
      details: { limit: decision.limit, resetAt: new Date(decision.resetAtMs).toISOString(), retryAt: new Date(decision.retryAtMs).toISOString() },
    }),
  };
}
