import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

/** The deployment-facing configuration rules: Vercel, pooled Postgres URLs, Upstash names, cron. */
const DIRECT = "postgres://app:pw@db.example.com:5432/shop";
const POOLED = "postgres://app:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres?pgbouncer=true";

describe("Vercel without a database", () => {
  it("refuses to start: PGlite cannot live on Vercel's functions", () => {
    expect(() => parseEnv({ VERCEL: "1" })).toThrow(/DATABASE_URL: is required on Vercel/);
    expect(() => parseEnv({ VERCEL: "1", VERCEL_ENV: "preview", NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) })).toThrow(/DATABASE_URL/);
  });

  it("accepts DATABASE_URL, or POSTGRES_URL as Vercel's Postgres integrations name it", () => {
    expect(parseEnv({ VERCEL: "1", DATABASE_URL: DIRECT }).DATABASE_URL).toBe(DIRECT);
    expect(parseEnv({ VERCEL: "1", POSTGRES_URL: DIRECT }).DATABASE_URL).toBe(DIRECT);
    expect(parseEnv({ DATABASE_URL: DIRECT, POSTGRES_URL: POOLED }).DATABASE_URL).toBe(DIRECT);
  });
});

describe("DATABASE_PREPARE", () => {
  it("defaults on for a direct URL (and for the embedded database)", () => {
    expect(parseEnv({ DATABASE_URL: DIRECT }).DATABASE_PREPARE).toBe(true);
    expect(parseEnv({}).DATABASE_PREPARE).toBe(true);
  });

  it("defaults off behind a transaction-mode pooler, without a warning", () => {
    for (const url of [POOLED, "postgres://a:b@ep-x-123-pooler.us-east-2.aws.neon.tech/neondb?sslmode=require", "postgres://a:b@h:6543/db"]) {
      const env = parseEnv({ DATABASE_URL: url, DATABASE_URL_UNPOOLED: DIRECT });
      expect(env.DATABASE_PREPARE).toBe(false);
      expect(env.warnings).toEqual([]);
    }
  });

  it("an explicit value wins; true behind a pooler is kept but warned about", () => {
    expect(parseEnv({ DATABASE_URL: DIRECT, DATABASE_PREPARE: "false" }).DATABASE_PREPARE).toBe(false);
    const forced = parseEnv({ DATABASE_URL: POOLED, DATABASE_URL_UNPOOLED: DIRECT, DATABASE_PREPARE: "true" });
    expect(forced.DATABASE_PREPARE).toBe(true);
    expect(forced.warnings.join("\n")).toMatch(/DATABASE_PREPARE=true .* pooler/);
  });
});

describe("the migration URL", () => {
  it("prefers the direct URL under either integration's name", () => {
    const other = "postgres://app:pw@direct-2.example.com:5432/shop";
    expect(parseEnv({ DATABASE_URL: POOLED, DATABASE_URL_UNPOOLED: DIRECT, POSTGRES_URL_NON_POOLING: other }).migrationDatabaseUrl).toBe(DIRECT);
    expect(parseEnv({ DATABASE_URL: POOLED, POSTGRES_URL_NON_POOLING: other }).migrationDatabaseUrl).toBe(other);
    expect(parseEnv({ DATABASE_URL: DIRECT }).migrationDatabaseUrl).toBe(DIRECT);
    expect(parseEnv({}).migrationDatabaseUrl).toBeUndefined();
  });

  it("warns when migrations would go through the pooler", () => {
    expect(parseEnv({ DATABASE_URL: POOLED }).warnings.join("\n")).toMatch(/DATABASE_URL_UNPOOLED/);
  });
});

describe("Upstash under both naming schemes", () => {
  const url = "https://eu1-example.upstash.io";
  it("reads Upstash's own names and the names Vercel's KV integration injects", () => {
    expect(parseEnv({ UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: "tok-a" }).upstash).toEqual({ url, token: "tok-a" });
    expect(parseEnv({ KV_REST_API_URL: url, KV_REST_API_TOKEN: "tok-b" }).upstash).toEqual({ url, token: "tok-b" });
    expect(parseEnv({ UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: "tok-a", KV_REST_API_URL: "https://other.upstash.io", KV_REST_API_TOKEN: "tok-b" }).upstash).toEqual({ url, token: "tok-a" });
    expect(parseEnv({}).upstash).toBeUndefined();
  });

  it("refuses half an Upstash configuration", () => {
    expect(() => parseEnv({ UPSTASH_REDIS_REST_URL: url })).toThrow(/UPSTASH_REDIS_REST_TOKEN/);
  });
});

describe("jobs and deployment names", () => {
  it("CRON_SECRET must be long enough to be a secret; unset in production is warned about", () => {
    expect(() => parseEnv({ CRON_SECRET: "short" })).toThrow(/CRON_SECRET/);
    expect(parseEnv({ CRON_SECRET: "a-long-enough-cron-secret" }).CRON_SECRET).toBe("a-long-enough-cron-secret");
    expect(parseEnv({ VERCEL: "1", VERCEL_ENV: "production", DATABASE_URL: DIRECT }).warnings.join("\n")).toMatch(/CRON_SECRET/);
  });

  it("VERCEL_* host names are host names, not URLs", () => {
    expect(parseEnv({ VERCEL_URL: "storefront-abc123.vercel.app" }).VERCEL_URL).toBe("storefront-abc123.vercel.app");
    expect(() => parseEnv({ VERCEL_URL: "https://storefront-abc123.vercel.app" })).toThrow(/VERCEL_URL/);
  });

  it("RATE_LIMIT_PREFIX keeps deployments sharing one Redis apart", () => {
    expect(parseEnv({}).RATE_LIMIT_PREFIX).toBe("storefront:ratelimit");
    expect(parseEnv({ RATE_LIMIT_PREFIX: "storefront:preview" }).RATE_LIMIT_PREFIX).toBe("storefront:preview");
    expect(() => parseEnv({ RATE_LIMIT_PREFIX: "has spaces" })).toThrow(/RATE_LIMIT_PREFIX/);
  });
});
