import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/**
 * In-process sliding window, the embedded default, with the same arithmetic as @upstash/ratelimit's
 * slidingWindow (./upstash.ts): the current window's count plus the previous window's, weighted by
 * how much of it still lies within one window of now. A burst at the end of one window therefore
 * still counts at the start of the next, so no window boundary lets twice the limit through (a fixed
 * window let about 400 of 200 through across one). Per process: with several instances, configure
 * Upstash or REDIS_URL so they share one count.
 */
export function createMemoryRateLimiter(policy: RateLimitPolicy, now: () => number = Date.now): RateLimiter {
  const windowMs = policy.windowSeconds * 1000;
  const counts = new Map<string, { window: number; current: number; previous: number }>();
  let lastSweep = now();
  // The clock as the limiter reads it never goes back: a wall clock stepped back across a window's
  // start would otherwise find every count in a "later" window and start them all over.
  let latest = lastSweep;

  return {
    name: "memory",
    check(identifier: string): Promise<RateLimitDecision> {
      const time = Math.max(now(), latest);
      latest = time;
      const window = Math.floor(time / windowMs);
      if (time - lastSweep > windowMs) {
        for (const [key, entry] of counts) if (entry.window < window - 1) counts.delete(key);
        lastSweep = time;
      }
      const entry = counts.get(identifier);
      const current = entry?.window === window ? entry.current : 0;
      const previous = entry?.window === window ? entry.previous : entry?.window === window - 1 ? entry.current : 0;
      const weightedPrevious = Math.floor(previous * (1 - (time % windowMs) / windowMs));
      const resetAtMs = (window + 1) * windowMs;
      if (weightedPrevious + current >= policy.max) {
        counts.set(identifier, { window, current, previous });
        return Promise.resolve({ kind: "limited", limit: policy.max, remaining: 0, resetAtMs, retryAtMs: firstAdmission(policy.max, windowMs, { window, current, previous }, time) });
      }
      counts.set(identifier, { window, current: current + 1, previous });
      return Promise.resolve({ kind: "allowed", limit: policy.max, remaining: Math.max(0, policy.max - (weightedPrevious + current + 1)), resetAtMs });
    },
  };
}

/**
 * The first millisecond after `time` at which a request would be let through if none came before:
 * the weighted count only falls as time passes (the previous window's share shrinks; at the next
 * window the current count becomes the previous one), so a binary search over the next two windows
 * finds it. Within two windows both counts have aged out, so the search always ends.
 */
function firstAdmission(max: number, windowMs: number, state: { window: number; current: number; previous: number }, time: number): number {
  const weightedAt = (at: number): number => {
    const window = Math.floor(at / windowMs);
    const share = 1 - (at % windowMs) / windowMs;
    if (window === state.window) return Math.floor(state.previous * share) + state.current;
    if (window === state.window + 1) return Math.floor(state.current * share);
    return 0;
  };
  let refused = time;
  let admitted = (state.window + 2) * windowMs;
  while (admitted - refused > 1) {
    const middle = Math.floor((refused + admitted) / 2);
    if (weightedAt(middle) < max) admitted = middle;
    else refused = middle;
  }
  return admitted;
}
