/**
 * A decision about one request. `unknown` means the limiter could not decide (store down or slow):
 * the caller applies the configured policy and sends no rate-limit headers, since it has no numbers.
 */
export type RateLimitDecision =
  | { kind: "allowed"; limit: number; remaining: number; resetAtMs: number }
  /** `retryAtMs` (Retry-After): a time by which the next request is let through, if none comes before; the first such time where the limiter knows it (in-process). */
  | { kind: "limited"; limit: number; remaining: 0; resetAtMs: number; retryAtMs: number }
  | { kind: "unknown"; reason: string };

export interface RateLimiter {
  readonly name: string;
  check(identifier: string): Promise<RateLimitDecision>;
  /** Releases connections (the REDIS_URL limiter holds an ioredis socket that reconnects forever). */
  close?(): Promise<void>;
}

export type RateLimitPolicy = {
  max: number;
  windowSeconds: number;
  timeoutMs: number;
  /** Key prefix in a shared Redis (RATE_LIMIT_PREFIX); the in-process limiter needs none. */
  prefix?: string;
};
