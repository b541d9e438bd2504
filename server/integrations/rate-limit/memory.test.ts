import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./memory";

const policy = { max: 10, windowSeconds: 10, timeoutMs: 100, prefix: undefined };

async function allowedIn(limiter: ReturnType<typeof createMemoryRateLimiter>, count: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < count; i++) if ((await limiter.check("ip:1")).kind === "allowed") allowed++;
  return allowed;
}

describe("the in-process sliding window", () => {
  it("lets no more than the limit through across a window boundary (a fixed window let twice as many)", async () => {
    let time = 9_900;
    const limiter = createMemoryRateLimiter(policy, () => time);
    expect(await allowedIn(limiter, 10)).toBe(10);
    time = 10_000; // the next window begins: the burst 0.1 s ago still counts in full
    expect(await allowedIn(limiter, 10)).toBe(0);
    time = 15_000; // half a window later, half of the previous burst still counts
    expect(await allowedIn(limiter, 10)).toBe(5);
    time = 30_000; // two windows on, nothing counts
    expect(await allowedIn(limiter, 10)).toBe(10);
  });

  it("keeps steady traffic within the limit in every span of one window, give or take the weighting's rounding", async () => {
    let time = 0;
    const limiter = createMemoryRateLimiter(policy, () => time);
    const allowedAt: number[] = [];
    for (let step = 0; step < 2_000; step++) {
      time = step * 37;
      if ((await limiter.check("ip:1")).kind === "allowed") allowedAt.push(time);
    }
    // The previous window is weighted as if its requests were spread evenly (Upstash's approximation), so a
    // span can hold one more than the limit; a fixed window held up to twice the limit across each boundary.
    for (const start of allowedAt) expect(allowedAt.filter((at) => at >= start && at < start + 10_000).length).toBeLessThanOrEqual(policy.max + 1);
  });

  it("reports the remaining budget and the end of the current window", async () => {
    const limiter = createMemoryRateLimiter(policy, () => 12_000);
    expect(await limiter.check("ip:2")).toEqual({ kind: "allowed", limit: 10, remaining: 9, resetAtMs: 20_000 });
  });
});
