import type { Env } from "../../env";
import { createMemoryRateLimiter } from "./memory";
import type { RateLimitPolicy, RateLimiter } from "./types";
import { createRedisRateLimiter } from "./upstash";

export type { RateLimiter, RateLimitDecision } from "./types";

export function rateLimitPolicy(env: Env): RateLimitPolicy {
  return { max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS, timeoutMs: env.RATE_LIMIT_TIMEOUT_MS, prefix: env.RATE_LIMIT_PREFIX };
}

/** Upstash when configured, else plain Redis (REDIS_URL), else the in-process window. */
export async function createRateLimiter(env: Env): Promise<RateLimiter> {
  const policy = rateLimitPolicy(env);
  if (env.upstash) {
    const { Redis } = await import("@upstash/redis");
    const redis = new Redis({ url: env.upstash.url, token: env.upstash.token, retry: { retries: 1 }, enableTelemetry: false });
    return createRedisRateLimiter("upstash", redis, policy);
  }
  if (env.REDIS_URL) {
    const { Redis } = await import("ioredis");
    const { createRedisScriptRunner } = await import("./redis-script-runner");
    const client = new Redis(env.REDIS_URL, {
      lazyConnect: false,
      // Commands issued while (re)connecting wait in the offline queue; without it, the first check after
      // start-up always failed ("Stream isn't writeable"). The wait stays bounded: commandTimeout covers
      // queued commands, and maxRetriesPerRequest 0 rejects them as soon as a connection attempt fails.
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
      connectTimeout: policy.timeoutMs,
      commandTimeout: policy.timeoutMs,
    });
    // Without a listener ioredis reports connection errors as unhandled 'error' events.
    client.on("error", () => undefined);
    const limiter = createRedisRateLimiter("redis", createRedisScriptRunner(client), policy);
    return {
      name: limiter.name,
      check: (identifier) => limiter.check(identifier),
      close: async () => {
        if (client.status === "ready") await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      },
    };
  }
  return createMemoryRateLimiter(policy);
}
