import { z } from "zod";

/**
 * The only reader of process.env. Every variable the service understands is declared here,
 * validated once, and documented in README.md and .env.example.
 */
const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((value) => (value === undefined ? fallback : value === "true" || value === "1"));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    VERCEL: z.string().optional(),
    VERCEL_ENV: z.enum(["production", "preview", "development"]).optional(),

    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    DATABASE_URL: z.url().optional(),
    DATABASE_POOL_MAX: positiveInt(10),
    DATABASE_PREPARE: flag(true),
    DATABASE_CONNECT_TIMEOUT_SECONDS: positiveInt(5),
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(10_000),
    PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),

    AUTH_SECRET: z.string().min(32).optional(),

    CORS_ALLOWED_ORIGINS: commaList,

    RATE_LIMIT_MAX: positiveInt(200),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(600),
    RATE_LIMIT_TIMEOUT_MS: positiveInt(1_000),
    RATE_LIMIT_ON_ERROR: z.enum(["allow", "deny"]).default("allow"),
    UPSTASH_REDIS_REST_URL: z.url().optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
    KV_REST_API_URL: z.url().optional(),
    KV_REST_API_TOKEN: z.string().min(1).optional(),
    REDIS_URL: z.string().regex(/^rediss?:\/\//).optional(),

    CLIENT_IP_SOURCE: z.enum(["auto", "vercel", "socket", "forwarded"]).default("auto"),
    TRUSTED_PROXY_COUNT: z.coerce.number().int().min(1).max(10).default(1),

    CART_IDLE_TTL_MINUTES: positiveInt(24 * 60),
    CART_MAX_LINES: positiveInt(100),
    CART_MAX_LINE_QUANTITY: positiveInt(99),
    IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(24).default(48),
    MAX_BODY_BYTES: positiveInt(64 * 1024),
    STOREFRONT_BASE_URL: z.url().optional(),

    /** Delivery quotes go to a DoorDash-Drive-style API when both are set; otherwise the simulated courier answers. */
    COURIER_API_URL: z.url().optional(),
    COURIER_API_KEY: z.string().min(1).optional(),
    COURIER_TIMEOUT_MS: positiveInt(3_000),
    /** Delivery radius of the simulated courier, from the location's coordinates. */
    COURIER_MAX_RADIUS_KM: z.coerce.number().positive().max(500).default(8),
    /** Largest courier tip a customer may set, in minor units of the cart's currency. */
    COURIER_TIP_MAX_MINOR: positiveInt(10_000),

    /** Card payments go to Stripe when this is set; otherwise the simulated processor answers. */
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, "must be a Stripe secret or restricted key (sk_... or rk_...)").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Tests point the real SDK at a local fake, e.g. http://127.0.0.1:12111. */
    STRIPE_API_BASE: z.url().optional(),
    STRIPE_TIMEOUT_MS: positiveInt(10_000),
    STRIPE_MAX_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    /** The simulated kitchen (orderRouting: platform) accepts a paid order this many seconds after it was placed. */
    ORDER_ACCEPT_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(3),

    /**
     * Enables /api/bench/{operation}, the benchmark's plain-route control (same services, no
     * transport: no rate limit, validation or envelope). Only `npm run bench` sets it; it must stay
     * off in every deployment.
     */
    BENCH_CONTROL_ROUTES: flag(false),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && env.VERCEL && !env.AUTH_SECRET) {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "AUTH_SECRET is required on Vercel" });
    }
    if (env.VERCEL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: "is required on Vercel: the embedded PGlite database cannot live on read-only, short-lived functions",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "is required with STRIPE_SECRET_KEY: payments confirmed in the browser are finalised from verified webhooks",
      });
    }
    if (Boolean(env.COURIER_API_URL) !== Boolean(env.COURIER_API_KEY)) {
      ctx.addIssue({ code: "custom", path: ["COURIER_API_KEY"], message: "COURIER_API_URL and COURIER_API_KEY go together" });
    }
    if (Boolean(env.UPSTASH_REDIS_REST_URL) !== Boolean(env.UPSTASH_REDIS_REST_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: ["UPSTASH_REDIS_REST_TOKEN"],
        message: "UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together",
      });
    }
  });

export type Env = z.infer<typeof envSchema> & {
  /** Upstash REST endpoint under either naming scheme (Upstash's own, or Vercel's KV integration). */
  upstash: { url: string; token: string } | undefined;
  /** Secret used to derive token-hashing and sealing keys. */
  secret: string;
};

/** Used only when AUTH_SECRET is unset outside Vercel: fine for a laptop, logged as a warning. */
const DEVELOPMENT_SECRET = "development-only-secret-do-not-use-in-production-0000";

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = result.data;
  const upstashUrl = env.UPSTASH_REDIS_REST_URL ?? env.KV_REST_API_URL;
  const upstashToken = env.UPSTASH_REDIS_REST_TOKEN ?? env.KV_REST_API_TOKEN;
  return {
    ...env,
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : undefined,
    secret: env.AUTH_SECRET ?? DEVELOPMENT_SECRET,
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
