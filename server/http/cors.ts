import type { Env } from "../env";

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

type OriginSettings = Pick<Env, "CORS_ALLOWED_ORIGINS" | "VERCEL" | "VERCEL_URL" | "VERCEL_BRANCH_URL" | "VERCEL_PROJECT_PRODUCTION_URL">;

const allowlists = new WeakMap<OriginSettings, readonly string[]>();

/**
 * The configured origins, plus on Vercel the deployment's own https origins: its unique URL, its
 * branch alias and the project's production domain. So a preview's storefront, opened at either
 * preview address, may call the API of that same deployment, and no other deployment's origin is
 * trusted by accident. Computed once per configuration.
 */
export function corsAllowlist(env: OriginSettings): readonly string[] {
  let list = allowlists.get(env);
  if (!list) {
    const own = env.VERCEL ? [env.VERCEL_URL, env.VERCEL_BRANCH_URL, env.VERCEL_PROJECT_PRODUCTION_URL] : [];
    const deployment = own.filter((host): host is string => Boolean(host)).map((host) => `https://${host.toLowerCase()}`);
    list = [...new Set([...env.CORS_ALLOWED_ORIGINS.map((origin) => origin.replace(/\/+$/, "")), ...deployment])];
    allowlists.set(env, list);
  }
  return list;
}

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
