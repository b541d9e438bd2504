import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/**
 * In-process fixed window, the embedded default. Same semantics as the Redis-backed fixedWindow, but
 * per process: with several instances, configure Upstash or REDIS_URL so they share one count.
 */
export function createMemoryRateLimiter(policy: RateLimitPolicy, now: () => number = Date.now): RateLimiter {
  const windowMs = policy.windowSeconds * 1000;
  const counts = new Map<string, { windowStart: number; used: number }>();
  let lastSweep = now();

  return {
    name: "memory",
    check(identifier: string): Promise<RateLimitDecision> {
      const time = now();
      const windowStart = Math.floor(time / windowMs) * windowMs;
      if (time - lastSweep > windowMs) {
        for (const [key, entry] of counts) if (entry.windowStart < windowStart) counts.delete(key);
        lastSweep = time;
      }
      const entry = counts.get(identifier);
      const used = entry && entry.windowStart === windowStart ? entry.used + 1 : 1;
      counts.set(identifier, { windowStart, used });
      return Promise.resolve({
        kind: used <= policy.max ? "allowed" : "limited",
        limit: policy.max,
        remaining: Math.max(0, policy.max - used),
        resetAtMs: windowStart + windowMs,
      });
    },
  };
}
