import { createHash, randomBytes } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awayFromWindowEdge, untilWallClock } from "../rate-limit-window";
import type { AppDeps } from "../../server/app/deps";
import { parseEnv } from "../../server/env";
import { AppError } from "../../server/errors";
import { applyRateLimit } from "../../server/http/rate-limit";
import { createRateLimiter, type RateLimitDecision, type RateLimiter } from "../../server/integrations/rate-limit";
import { createMemoryRateLimiter } from "../../server/integrations/rate-limit/memory";
import { startUpstashBridge, type UpstashBridge } from "../upstash-bridge";

/**
 * The rate limiter on each backend: in-process window, plain Redis (ioredis + script runner), and the
 * Upstash REST client through a local bridge to the same Redis. No database is involved.
 */

const REDIS_URL = "redis://127.0.0.1:6379";
const WINDOW_SECONDS = 600;
const unique = (label: string) => `test:${label}:${randomBytes(6).toString("hex")}`;

const openLimiters: RateLimiter[] = [];
const openBridges: UpstashBridge[] = [];
let admin: Redis;

async function limiterFrom(vars: Record<string, string>): Promise<RateLimiter> {
  const env = parseEnv({ NODE_ENV: "test", RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), RATE_LIMIT_TIMEOUT_MS: "2000", ...vars });
  const limiter = await createRateLimiter(env);
  openLimiters.push(limiter);
  return limiter;
}

async function bridge(options: { delayMs?: number } = {}): Promise<UpstashBridge> {
  const started = await startUpstashBridge(options);
  openBridges.push(started);
  return started;
}


async function checks(limiter: RateLimiter, identifier: string, count: number): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < count; i += 1) decisions.push(await limiter.check(identifier));
  return decisions;
}

type Counted = Extract<RateLimitDecision, { kind: "allowed" | "limited" }>;

function counted(decision: RateLimitDecision | undefined): Counted {
  if (!decision || decision.kind === "unknown") throw new Error(`expected a counted decision, got ${JSON.stringify(decision)}`);
  return decision;
}

/** Three allowed (remaining 2, 1, 0), then limited; one reset, in the future and within the window. */
function expectMaxThree(decisions: RateLimitDecision[], startedAt: number) {
  const list = decisions.map(counted);
  expect(list.map((decision) => decision.kind)).toEqual(["allowed", "allowed", "allowed", "limited", "limited"]);
  expect(list.map((decision) => decision.remaining)).toEqual([2, 1, 0, 0, 0]);
  expect(list.every((decision) => decision.limit === 3)).toBe(true);
  const resets = new Set(list.map((decision) => decision.resetAtMs));
  expect(resets.size).toBe(1);
  const reset = list[0]!.resetAtMs;
  expect(reset).toBeGreaterThan(Date.now());
  expect(reset).toBeLessThanOrEqual(startedAt + WINDOW_SECONDS * 1000);
  expect(reset % (WINDOW_SECONDS * 1000)).toBe(0);
}

beforeAll(async () => {
  admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(openLimiters.map((limiter) => (limiter.close ? limiter.close() : Promise.resolve())));
  await Promise.all(openBridges.map((opened) => opened.close()));
  await admin?.quit();
});

describe("memory limiter", () => {
  const policy = { max: 3, windowSeconds: 60, timeoutMs: 1000 };
  const windowStart = 28_000_000 * 60_000;

  it("allows exactly max per window, then limits with remaining 0; the window end is the reset", async () => {
    const clock = { now: windowStart + 5_000 };
    const limiter = createMemoryRateLimiter(policy, () => clock.now);
    const decisions = await checks(limiter, "ip:a", 5);
    expect(decisions).toEqual([
      { kind: "allowed", limit: 3, remaining: 2, resetAtMs: windowStart + 60_000 },
      { kind: "allowed", limit: 3, remaining: 1, resetAtMs: windowStart + 60_000 },
      { kind: "allowed", limit: 3, remaining: 0, resetAtMs: windowStart + 60_000 },
      { kind: "limited", limit: 3, remaining: 0, resetAtMs: windowStart + 60_000, retryAtMs: windowStart + 60_001 },
      { kind: "limited", limit: 3, remaining: 0, resetAtMs: windowStart + 60_000, retryAtMs: windowStart + 60_001 },
    ]);
    clock.now = windowStart + 59_999;
    expect((await limiter.check("ip:a")).kind).toBe("limited");
  });

  it("counts a window's requests into the next by the share of it still within one window, then starts over", async () => {
    const clock = { now: windowStart + 1_000 };
    const limiter = createMemoryRateLimiter(policy, () => clock.now);
    await checks(limiter, "ip:a", 4);
    // The next window begins: the 3 requests a minute ago still count in full (a fixed window started over here).
    clock.now = windowStart + 60_000;
    // A millisecond on, the weight rounds them down to 2 (floor(3 x 59_999 / 60_000)): the next is let through.
    expect(await limiter.check("ip:a")).toEqual({ kind: "limited", limit: 3, remaining: 0, resetAtMs: windowStart + 120_000, retryAtMs: windowStart + 60_001 });
    // Half a window on, half of them (1 of 3, rounded down) still counts.
    clock.now = windowStart + 90_000;
    expect(await limiter.check("ip:a")).toEqual({ kind: "allowed", limit: 3, remaining: 1, resetAtMs: windowStart + 120_000 });
    // Long after (several windows, which also sweeps old entries): a fresh count again.
    clock.now = windowStart + 10 * 60_000 + 30_000;
    expect(await limiter.check("ip:a")).toEqual({ kind: "allowed", limit: 3, remaining: 2, resetAtMs: windowStart + 11 * 60_000 });
  });

  it("says when the next request is let through: refused a millisecond before, let through at it", async () => {
    // The audit's case first: the previous window full, 15 s into this one. The window's end (585 s
    // away) was the Retry-After, when the falling weight of those requests lets one through in seconds.
    const big = { max: 200, windowSeconds: 600, timeoutMs: 1000 };
    for (const [before, at] of [[200, 15_000], [200, 300_000], [120, 15_000], [0, 15_000], [57, 599_000]] as const) {
      const clock = { now: windowStart + 590_000 };
      const limiter = createMemoryRateLimiter(big, () => clock.now);
      await checks(limiter, "ip:a", before);
      clock.now = windowStart + 600_000 + at;
      let refused: RateLimitDecision | undefined;
      for (let tries = 0; tries <= 200 && refused?.kind !== "limited"; tries += 1) refused = await limiter.check("ip:a");
      if (refused?.kind !== "limited") throw new Error(`${before}@${at}: never limited`);
      expect(refused.retryAtMs, `${before}@${at}`).toBeGreaterThan(clock.now);
      expect(refused.retryAtMs, `${before}@${at}`).toBeLessThanOrEqual(refused.resetAtMs + 1);
      if (before === 200 && at === 15_000) expect(refused.retryAtMs - clock.now).toBeLessThan(1_000);
      clock.now = refused.retryAtMs - 1;
      expect((await limiter.check("ip:a")).kind, `${before}@${at}: a millisecond before`).toBe("limited");
      clock.now = refused.retryAtMs;
      expect((await limiter.check("ip:a")).kind, `${before}@${at}: at the time said`).toBe("allowed");
    }
  });

  it("keeps its counts when the wall clock steps back across a window's start", async () => {
    const clock = { now: windowStart + 60_005 };
    const limiter = createMemoryRateLimiter(policy, () => clock.now);
    expect((await checks(limiter, "ip:a", 4)).map((decision) => decision.kind)).toEqual(["allowed", "allowed", "allowed", "limited"]);
    clock.now = windowStart + 59_990;
    expect((await checks(limiter, "ip:a", 3)).map((decision) => decision.kind)).toEqual(["limited", "limited", "limited"]);
    clock.now = windowStart + 60_010;
    expect((await limiter.check("ip:a")).kind).toBe("limited");
  });

  it("counts identifiers independently", async () => {
    const clock = { now: windowStart };
    const limiter = createMemoryRateLimiter(policy, () => clock.now);
    await checks(limiter, "ip:a", 4);
    expect(counted(await limiter.check("ip:b"))).toMatchObject({ kind: "allowed", remaining: 2 });
    expect(counted(await limiter.check("ip:a"))).toMatchObject({ kind: "limited", remaining: 0 });
  });
});

describe("plain Redis (REDIS_URL)", () => {
  it("uses Redis when only REDIS_URL is set", async () => {
    expect((await limiterFrom({ REDIS_URL })).name).toBe("redis");
    expect((await limiterFrom({})).name).toBe("memory");
  });

  it("allows 3 then limits, counting remaining down 2, 1, 0 (from the very first call)", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const startedAt = Date.now();
    const limiter = await limiterFrom({ REDIS_URL });
    expectMaxThree(await checks(limiter, unique("redis"), 5), startedAt);
  });

  it("shares one count between two instances", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const [first, second] = [await limiterFrom({ REDIS_URL }), await limiterFrom({ REDIS_URL })];
    const identifier = unique("shared");
    const decisions = [await first.check(identifier), await second.check(identifier), await first.check(identifier), await second.check(identifier)];
    expect(decisions.map(counted).map((decision) => [decision.kind, decision.remaining])).toEqual([
      ["allowed", 2],
      ["allowed", 1],
      ["allowed", 0],
      ["limited", 0],
    ]);
    expect(counted(await first.check(identifier)).kind).toBe("limited");
  });

  it("recovers after the server forgets its scripts (SCRIPT FLUSH -> NOSCRIPT -> EVAL)", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const limiter = await limiterFrom({ REDIS_URL });
    const identifier = unique("noscript");
    expect(counted(await limiter.check(identifier))).toMatchObject({ kind: "allowed", remaining: 2 });

    // The runner stores the script without its shebang, under that text's hash.
    const script = await limiterScript();
    const storedSha = createHash("sha1").update(script.replace(/^#!lua[^\n]*\n/, "")).digest("hex");
    expect(await admin.script("EXISTS", storedSha)).toEqual([1]);
    // Not asserting EXISTS = 0 after the flush: the other test project may share this Redis and reload it.
    await admin.script("FLUSH");

    expect(counted(await limiter.check(identifier))).toMatchObject({ kind: "allowed", remaining: 1 });
    expect(await admin.script("EXISTS", storedSha)).toEqual([1]);
    expect(counted(await limiter.check(identifier))).toMatchObject({ kind: "allowed", remaining: 0 });
  });
});

describe("Upstash REST (through the local bridge)", () => {
  let upstash: UpstashBridge;
  beforeAll(async () => {
    upstash = await bridge();
  });

  it("the bridge speaks the REST protocol: auth, single commands, pipelines, base64", async () => {
    const key = unique("bridge");
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${upstash.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${upstash.token}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));

    const unauthorised = await fetch(`${upstash.url}/`, { method: "POST", headers: { authorization: "Bearer wrong" }, body: "[\"ping\"]" });
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toEqual({ error: expect.any(String) as unknown });

    expect(await post("/", ["set", key, "héllo", "EX", 60])).toEqual({ status: 200, body: { result: "OK" } });
    expect(await post("/", ["get", key])).toEqual({ status: 200, body: { result: "héllo" } });
    expect(await post("/", ["get", key], { "Upstash-Encoding": "base64" })).toEqual({
      status: 200,
      body: { result: Buffer.from("héllo").toString("base64") },
    });
    expect((await post("/", ["nosuchcommand"])).body).toEqual({ error: expect.stringContaining("unknown command") as unknown });

    const pipeline = await post("/pipeline", [["rpush", `${key}:l`, "a", "b"], ["lrange", `${key}:l`, 0, -1], ["set", `${key}:l`, "x", "bogus"], ["expire", `${key}:l`, 60]], {
      "Upstash-Encoding": "base64",
    });
    expect(pipeline).toEqual({ status: 200, body: [{ result: 2 }, { result: ["YQ==", "Yg=="] }, { error: expect.stringContaining("syntax") as unknown }, { result: 1 }] });

    const multi = await post("/multi-exec", [["incr", `${key}:n`], ["incr", `${key}:n`], ["expire", `${key}:n`, 60]]);
    expect(multi).toEqual({ status: 200, body: [{ result: 1 }, { result: 2 }, { result: 1 }] });
  });

  it("allows 3 then limits with UPSTASH_REDIS_REST_URL / _TOKEN; single calls arrive auto-pipelined", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const startedAt = Date.now();
    const limiter = await limiterFrom({ UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token });
    expect(limiter.name).toBe("upstash");
    const before = upstash.requests.length;
    expectMaxThree(await checks(limiter, unique("upstash"), 5), startedAt);
    const seen = upstash.requests.slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.every((request) => request.path === "/pipeline")).toBe(true);
    expect(seen.flatMap((request) => request.commands.map((command) => command[0]?.toLowerCase()))).toContain("evalsha");
  });

  it("works with Vercel's KV_REST_API_URL / KV_REST_API_TOKEN names, sharing the count with Redis users", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const startedAt = Date.now();
    const limiter = await limiterFrom({ KV_REST_API_URL: upstash.url, KV_REST_API_TOKEN: upstash.token });
    expect(limiter.name).toBe("upstash");
    const before = upstash.requests.length;
    expectMaxThree(await checks(limiter, unique("kv"), 5), startedAt);
    expect(upstash.requests.length).toBeGreaterThan(before);

    // Same store, same keys: a plain-Redis instance sees the count the REST client made.
    const identifier = unique("mixed");
    await checks(limiter, identifier, 2);
    expect(counted(await (await limiterFrom({ REDIS_URL })).check(identifier))).toMatchObject({ kind: "allowed", remaining: 0 });
  });

  it("recovers from NOSCRIPT through the REST client as well", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const limiter = await limiterFrom({ UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token });
    const identifier = unique("upstash-noscript");
    expect(counted(await limiter.check(identifier))).toMatchObject({ remaining: 2 });
    await admin.script("FLUSH");
    expect(counted(await limiter.check(identifier))).toMatchObject({ kind: "allowed", remaining: 1 });
  });
});

describe("store down or slow", () => {
  const TIMEOUT_MS = 500;

  async function timed(limiter: RateLimiter): Promise<{ decision: RateLimitDecision; elapsedMs: number }> {
    const started = performance.now();
    const decision = await limiter.check(unique("down"));
    return { decision, elapsedMs: performance.now() - started };
  }

  it("REDIS_URL on a closed port answers unknown, within a bound", async () => {
    const limiter = await limiterFrom({ REDIS_URL: "redis://127.0.0.1:1", RATE_LIMIT_TIMEOUT_MS: String(TIMEOUT_MS) });
    for (let i = 0; i < 3; i += 1) {
      const { decision, elapsedMs } = await timed(limiter);
      expect(decision.kind).toBe("unknown");
      expect(elapsedMs).toBeLessThan(3000);
    }
  });

  it("an Upstash URL that refuses connections answers unknown, within a bound", async () => {
    const limiter = await limiterFrom({ UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1", UPSTASH_REDIS_REST_TOKEN: "x", RATE_LIMIT_TIMEOUT_MS: String(TIMEOUT_MS) });
    const { decision, elapsedMs } = await timed(limiter);
    expect(decision.kind).toBe("unknown");
    expect(elapsedMs).toBeLessThan(3000);
  });

  it("an Upstash endpoint slower than the timeout answers unknown (the library's 'timeout' reason)", async () => {
    const slow = await bridge({ delayMs: 5000 });
    const limiter = await limiterFrom({ UPSTASH_REDIS_REST_URL: slow.url, UPSTASH_REDIS_REST_TOKEN: slow.token, RATE_LIMIT_TIMEOUT_MS: String(TIMEOUT_MS) });
    const { decision, elapsedMs } = await timed(limiter);
    expect(decision).toEqual({ kind: "unknown", reason: "timeout" });
    expect(elapsedMs).toBeLessThan(3000);

    // Once the store is fast again, the same instance counts normally.
    slow.setDelay(0);
    await awayFromWindowEdge(WINDOW_SECONDS);
    expect(counted(await limiter.check(unique("fast-again")))).toMatchObject({ kind: "allowed", remaining: 2 });
  });
});

describe("HTTP policy (applyRateLimit)", () => {
  const fixed = (decision: RateLimitDecision): RateLimiter => ({ name: "fixed", check: () => Promise.resolve(decision) });

  function deps(rateLimiter: RateLimiter, vars: Record<string, string> = {}, now = new Date()): AppDeps {
    const partial: Omit<AppDeps, "database" | "payments" | "courier" | "otpDelivery" | "responseCache" | "catalogCache" | "renderedCarts" | "keptCartLines"> = { env: parseEnv({ NODE_ENV: "test", ...vars }), rateLimiter, now: () => now };
    // applyRateLimit never touches the database, the processor, the courier, code delivery or the caches; a test double for them would only hide that.
    return partial as AppDeps;
  }

  const rateLimitHeaders = (headers: Record<string, string>) => Object.keys(headers).filter((name) => name.toLowerCase().startsWith("x-ratelimit"));

  it("unknown + policy allow: served, with no rate-limit headers", async () => {
    const result = await applyRateLimit(deps(fixed({ kind: "unknown", reason: "timeout" })), "203.0.113.1");
    expect(result.error).toBeUndefined();
    expect(rateLimitHeaders(result.headers)).toEqual([]);
  });

  it("unknown + policy deny: 503 DEPENDENCY_UNAVAILABLE, with no rate-limit headers", async () => {
    const result = await applyRateLimit(deps(fixed({ kind: "unknown", reason: "down" }), { RATE_LIMIT_ON_ERROR: "deny" }), "203.0.113.1");
    expect(result.error).toBeInstanceOf(AppError);
    expect(result.error?.code).toBe("DEPENDENCY_UNAVAILABLE");
    expect(result.error?.status).toBe(503);
    expect(rateLimitHeaders(result.headers)).toEqual([]);
    expect(rateLimitHeaders(result.error?.headers ?? {})).toEqual([]);
  });

  it("a real unreachable Redis goes through the same policy", async () => {
    const down = await limiterFrom({ REDIS_URL: "redis://127.0.0.1:1", RATE_LIMIT_TIMEOUT_MS: "500" });
    expect((await applyRateLimit(deps(down), "203.0.113.2")).error).toBeUndefined();
    expect((await applyRateLimit(deps(down, { RATE_LIMIT_ON_ERROR: "deny" }), "203.0.113.2")).error?.status).toBe(503);
  });

  it("allowed: headers carry the limiter's numbers, reset in epoch seconds", async () => {
    const now = new Date(1_800_000_000_000);
    const result = await applyRateLimit(deps(fixed({ kind: "allowed", limit: 3, remaining: 2, resetAtMs: 1_800_000_059_500 }), {}, now), "203.0.113.1");
    expect(result.error).toBeUndefined();
    expect(result.headers).toEqual({ "X-RateLimit-Limit": "3", "X-RateLimit-Remaining": "2", "X-RateLimit-Reset": "1800000060" });
  });

  it("limited: 429 RATE_LIMITED with Retry-After >= 1 and X-RateLimit-Reset in seconds", async () => {
    const windowStart = 30_000_000 * 60_000;
    const clock = { now: windowStart + 59_900 };
    const limiter = createMemoryRateLimiter({ max: 1, windowSeconds: 60, timeoutMs: 1000 }, () => clock.now);
    const ipDeps = () => deps(limiter, {}, new Date(clock.now));
    expect((await applyRateLimit(ipDeps(), "203.0.113.9")).error).toBeUndefined();
    const result = await applyRateLimit(ipDeps(), "203.0.113.9");
    expect(result.error?.code).toBe("RATE_LIMITED");
    expect(result.error?.status).toBe(429);
    // 100 ms before the reset still means "retry in 1 s", never 0.
    expect(result.error?.headers["Retry-After"]).toBe("1");
    const reset = Number(result.headers["X-RateLimit-Reset"]);
    expect(reset).toBe((windowStart + 60_000) / 1000);
    expect(reset).toBeLessThan(clock.now / 100); // seconds, not milliseconds
    expect(result.headers["X-RateLimit-Remaining"]).toBe("0");

    clock.now = windowStart + 1_000;
    const early = await applyRateLimit(ipDeps(), "203.0.113.9");
    // Let through a millisecond into the next window (59.001 s away), so 60, rounded up.
    expect(Number(early.error?.headers["Retry-After"])).toBe(60);
  });

  it("limited through real Redis: a request at the time Retry-After names is let through", async () => {
    // A 2-second window of 3: the library's script (not our arithmetic) decides the request sent then.
    // The four checks fall in one window (across an edge the weighting would let a fourth through).
    const limiter = await limiterFrom({ REDIS_URL, RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_SECONDS: "2" });
    await awayFromWindowEdge(2, 500);
    const identifier = unique("retry-at");
    const decisions = (await checks(limiter, identifier, 4)).map(counted);
    const refused = decisions.at(-1);
    if (refused?.kind !== "limited") throw new Error(`expected the 4th to be limited: ${JSON.stringify(decisions)}`);
    expect(refused.retryAtMs).toBe(refused.resetAtMs + 1);
    await untilWallClock(refused.retryAtMs);
    expect((await limiter.check(identifier)).kind).toBe("allowed");
  });

  it("limited through real Redis: Retry-After >= 1 and a seconds-scale reset within the window", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS);
    const limiter = await limiterFrom({ REDIS_URL, RATE_LIMIT_MAX: "1" });
    const ip = `198.51.100.${randomBytes(1)[0]}-${randomBytes(4).toString("hex")}`;
    expect((await applyRateLimit(deps(limiter), ip)).error).toBeUndefined();
    const result = await applyRateLimit(deps(limiter), ip);
    expect(result.error?.status).toBe(429);
    expect(Number(result.error?.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    const reset = Number(result.headers["X-RateLimit-Reset"]);
    const nowSeconds = Date.now() / 1000;
    expect(reset).toBeGreaterThan(nowSeconds);
    expect(reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + WINDOW_SECONDS);
  });
});

/** The fixed-window script as @upstash/ratelimit ships it (with its `#!lua` shebang). */
async function limiterScript(): Promise<string> {
  let captured = "";
  const recorder = {
    evalsha: () => Promise.reject(new Error("NOSCRIPT")),
    eval: (script: string) => {
      captured = script;
      return Promise.resolve([1, 1]);
    },
  };
  const probe = new Ratelimit({
    redis: recorder as unknown as ConstructorParameters<typeof Ratelimit>[0]["redis"],
    limiter: Ratelimit.slidingWindow(1, "1 s"),
    ephemeralCache: false,
    analytics: false,
    timeout: 0,
  });
  // The recorder's answer is not the script's; only the script text is wanted.
  await probe.limit("probe").catch(() => undefined);
  if (!captured) throw new Error("could not capture the sliding-window script");
  return captured;
}
