import { Ratelimit } from "@upstash/ratelimit";
import { logger } from "../../log";
import type { RateLimitDecision, RateLimitPolicy, RateLimiter } from "./types";

/** The subset of a Redis client that @upstash/ratelimit's single-region algorithms call. */
export type ScriptRunner = {
  evalsha: (hash: string, keys: string[], args: unknown[]) => Promise<unknown>;
  eval: (script: string, keys: string[], args: unknown[]) => Promise<unknown>;
};

/**
 * @upstash/ratelimit's sliding window over any script runner: the Upstash REST client, or plain Redis
 * through ./redis-script-runner. Built once per process so its in-memory block cache is shared.
 */
export function createRedisRateLimiter(name: string, redis: ScriptRunner, policy: RateLimitPolicy): RateLimiter {
  const ratelimit = new Ratelimit({
    // Ratelimit types its client as @upstash/redis, but only ever calls evalsha/eval on it.
    redis: redis as unknown as ConstructorParameters<typeof Ratelimit>[0]["redis"],
    limiter: Ratelimit.slidingWindow(policy.max, `${policy.windowSeconds} s`),
    prefix: policy.prefix ?? "storefront:ratelimit",
    analytics: false,
    timeout: policy.timeoutMs,
    ephemeralCache: false,
  });

  // Logged when the store stops answering and when it answers again, not on every request of an outage.
  let answering = true;
  const noted = (decision: RateLimitDecision): RateLimitDecision => {
    if (decision.kind === "unknown" && answering) {
      answering = false;
      logger.warn({ limiter: name, reason: decision.reason }, "rate limiter: no answer from its store; RATE_LIMIT_ON_ERROR decides until it answers");
    } else if (decision.kind !== "unknown" && !answering) {
      answering = true;
      logger.info({ limiter: name }, "rate limiter: its store answers again");
    }
    return decision;
  };

  async function decide(identifier: string): Promise<RateLimitDecision> {
    try {
      const result = await ratelimit.limit(identifier);
      // On timeout the library answers success with made-up numbers; we treat it as "no answer".
      if (result.reason === "timeout") return { kind: "unknown", reason: "timeout" };
      if (result.success) return { kind: "allowed", limit: result.limit, remaining: Math.max(0, result.remaining), resetAtMs: result.reset };
      // The library does not say how many requests each window holds, so this is the latest time the
      // next request can be refused, not the first it is let through: its script refuses while
      // floor(previous x (1 - elapsed share)) + current >= limit and counts only what it lets through,
      // so the current window ends holding at most `limit`, and a millisecond into the next one its
      // weight rounds below it.
      return { kind: "limited", limit: result.limit, remaining: 0, resetAtMs: result.reset, retryAtMs: result.reset + 1 };
    } catch (error) {
      return { kind: "unknown", reason: error instanceof Error ? error.message : "error" };
    }
  }

  return { name, check: async (identifier) => noted(await decide(identifier)) };
}
