/** Exact-origin CORS. An origin is reflected only if it is on the allowlist, never otherwise. */
export const CORS_ALLOWED_HEADERS = [
  "Content-Type",
  "Authorization",
  "Idempotency-Key",
  "If-Match",
  "If-None-Match",
  "X-Cart-Token",
  "X-Receipt-Token",
  "X-Request-Id",
].join(", ");

export const CORS_EXPOSED_HEADERS = [
  "ETag",
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "Idempotent-Replayed",
].join(", ");

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";

export function isAllowedOrigin(origin: string | null, allowlist: readonly string[]): origin is string {
  return origin !== null && allowlist.includes(origin);
}

/** Headers for an actual (non-preflight) response. */
export function corsHeaders(origin: string | null, allowlist: readonly string[]): Record<string, string> {
  if (!isAllowedOrigin(origin, allowlist)) return { Vary: "Origin" };
  return {
    Vary: "Origin",
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS,
  };
}

export function preflightHeaders(origin: string): Record<string, string> {
  return {
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": ALLOWED_METHODS,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Max-Age": "600",
  };
}
