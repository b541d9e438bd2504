import { z } from "zod";
import { transactionPoolerHint } from "../db/connection-url";

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

/** Like `flag`, but unset stays undefined: the default is decided from other variables. */
const optionalFlag = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => (value === undefined ? undefined : value === "true" || value === "1"));

/** Vercel's deployment host names come without a scheme (`my-app-git-main-team.vercel.app`). */
const hostName = z
  .string()
  .regex(/^[a-z0-9.-]+(:\d+)?$/i, "must be a host name without scheme or path")
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    VERCEL: z.string().optional(),
    VERCEL_ENV: z.enum(["production", "preview", "development"]).optional(),
    /** Set by Vercel: this deployment's host, its branch alias, and the project's production domain (CORS allows each as https). */
    VERCEL_URL: hostName,
    VERCEL_BRANCH_URL: hostName,
    VERCEL_PROJECT_PRODUCTION_URL: hostName,

    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    /** Also read as POSTGRES_URL (the name Vercel's Postgres integrations inject) when unset. */
    DATABASE_URL: z.url().optional(),
    /**
     * A direct (unpooled) URL for migrations, under either name Vercel's Postgres integrations use
     * (Neon: DATABASE_URL_UNPOOLED; Vercel Postgres / Supabase: POSTGRES_URL_NON_POOLING). The
     * migration lock is a session advisory lock, which a transaction-mode pooler cannot hold.
     */
    DATABASE_URL_UNPOOLED: z.url().optional(),
    POSTGRES_URL_NON_POOLING: z.url().optional(),
    DATABASE_POOL_MAX: positiveInt(10),
    /** Named prepared statements. Unset: on, unless DATABASE_URL looks like a transaction-mode pooler. */
    DATABASE_PREPARE: optionalFlag,
    DATABASE_CONNECT_TIMEOUT_SECONDS: positiveInt(5),
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(10_000),
    /** How long a query or transaction may wait for a free pooled connection before the request answers 503. */
    DATABASE_QUEUE_TIMEOUT_MS: positiveInt(5_000),
    PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),

    AUTH_SECRET: z.string().min(32).optional(),

    CORS_ALLOWED_ORIGINS: commaList,

    RATE_LIMIT_MAX: positiveInt(200),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(600),
    RATE_LIMIT_TIMEOUT_MS: positiveInt(1_000),
    RATE_LIMIT_ON_ERROR: z.enum(["allow", "deny"]).default("allow"),
    /** Prefix of the limiter's Redis keys: deployments (or test runs) sharing one Redis keep separate counts. */
    RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/).default("storefront:ratelimit"),
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

    /**
     * Card payments go to Stripe when this is set; otherwise the simulated processor answers, where
     * it may (SIMULATED_PAYMENTS).
     */
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, "must be a Stripe secret or restricted key (sk_... or rk_...)").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /**
     * Public: handed to browsers (GET /locations/{locationId}/payment-config) so the storefront can
     * render Stripe's Payment Element. Without it the demo storefront offers test cards that the
     * server confirms (pm_card_visa and friends).
     */
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_/, "must be a Stripe publishable key (pk_test_... or pk_live_...)").optional(),
    /** Tests point the real SDK at a local fake, e.g. http://127.0.0.1:12111. */
    STRIPE_API_BASE: z.url().optional(),
    STRIPE_TIMEOUT_MS: positiveInt(10_000),
    STRIPE_MAX_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    /** The simulated kitchen (orderRouting: platform) accepts a paid order this many seconds after it was placed. */
    ORDER_ACCEPT_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(3),

    /** Lifetime of a customer session (the bearer JWT and its session row) from sign-in. */
    CUSTOMER_SESSION_TTL_HOURS: positiveInt(30 * 24),
    /** One-time sign-in codes: lifetime, wrong guesses per code, and per-identifier limits per hour (across IPs and instances). */
    OTP_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
    OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
    OTP_MAX_CHALLENGES_PER_HOUR: positiveInt(5),
    OTP_MAX_FAILURES_PER_HOUR: positiveInt(10),
    /** One-time codes go out by e-mail over SMTP when set (smtp:// or smtps://); otherwise to the development outbox. */
    SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
    EMAIL_FROM: z.string().min(3).optional(),
    SMTP_TIMEOUT_MS: positiveInt(10_000),

    /**
     * Bearer secret of the background-job routes (GET /api/jobs/{name}); Vercel Cron sends it as
     * `Authorization: Bearer <CRON_SECRET>`. Unset: the job routes answer 404.
     */
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** Rows one job touches per batch (one transaction), and how long one run may keep starting batches. */
    JOB_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(200),
    JOB_TIME_BUDGET_MS: z.coerce.number().int().min(1_000).max(800_000).default(20_000),
    /** A payment still pending this long after it was reported (or a confirmed-looking session this old) is reconciled by the job. */
    PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /**
     * Demo data on `npm run db:migrate`: `auto` seeds Vercel preview deployments (VERCEL_ENV=preview)
     * only; `false` never; `true` also elsewhere. Production deployments are never seeded.
     */
    SEED_DEMO_DATA: z.enum(["auto", "true", "false"]).default("auto"),

    /**
     * Enables /api/bench/{operation}, the benchmark's plain-route control (same services, no
     * transport: no rate limit, validation or envelope). Only `npm run bench` sets it; it must stay
     * off in every deployment.
     */
    BENCH_CONTROL_ROUTES: flag(false),

    /**
     * Enables POST /api/e2e/publish (catalog changes during the browser tests). Only the Playwright
     * web server sets it; refused on Vercel and must stay off in every deployment.
     */
    E2E_ADMIN_ROUTES: flag(false),

    /**
     * Lets the tests of the production build set the time each request sees (header X-Test-Clock,
     * read by scripts/serve.mjs; server/app/test-clock.ts), so the same integration tests that move
     * the clock in-process run against `npm start`. Only the test harness sets it; refused on Vercel
     * and must stay off in every deployment.
     */
    TEST_CLOCK_CONTROL: flag(false),

    /**
     * Deliver one-time sign-in codes to the development outbox (/api/dev/outbox, readable by anyone)
     * when no SMTP is configured, in a production start with its own database: for a preview
     * deployment whose testers read their codes there. Without it, such a start turns customer
     * sign-in off (503) rather than publish every code. The embedded default (no DATABASE_URL) and
     * development use the outbox anyway. Refused on Vercel production.
     */
    DEV_OUTBOX: flag(false),

    /**
     * Take card payments with the simulated processor when STRIPE_SECRET_KEY is unset. It accepts
     * Stripe's test payment methods (pm_card_visa) as payment, and keeps its payments in this process's
     * memory (one instance only). Unset: yes in development, on the embedded default (no DATABASE_URL)
     * and on Vercel preview deployments; no in any other production start with its own database, whose
     * server (and jobs) then refuse to start without STRIPE_SECRET_KEY rather than hand out orders for
     * test cards (server/integrations/payments/index.ts). Refused on Vercel production.
     */
    SIMULATED_PAYMENTS: optionalFlag,

    /**
     * Check every response against its procedure's output schema (server/trpc/response-validation.ts).
     * Unset: on, except with NODE_ENV=production.
     */
    VALIDATE_RESPONSES: optionalFlag,
    /**
     * How long an anonymous catalog read (a GET answered `Cache-Control: public`) is served from this
     * process's memory without touching the database; 0 turns the cache off. At most the max-age the
     * responses advertise (30 s). Catalog publications through this process clear it at once.
     */
    RESPONSE_CACHE_TTL_MS: z.coerce.number().int().min(0).max(30_000).default(5_000),
  })
  .superRefine((env, ctx) => {
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
    if (env.STRIPE_PUBLISHABLE_KEY) {
      const publishableMode = env.STRIPE_PUBLISHABLE_KEY.startsWith("pk_live_") ? "live" : "test";
      if (!env.STRIPE_SECRET_KEY) {
        ctx.addIssue({ code: "custom", path: ["STRIPE_PUBLISHABLE_KEY"], message: "needs STRIPE_SECRET_KEY: without it payments go to the simulated processor, which Stripe.js cannot reach" });
      } else if (!env.STRIPE_SECRET_KEY.includes(`_${publishableMode}_`)) {
        ctx.addIssue({ code: "custom", path: ["STRIPE_PUBLISHABLE_KEY"], message: `is a ${publishableMode}-mode key but STRIPE_SECRET_KEY is not: use keys of the same mode` });
      }
    }
    if (env.E2E_ADMIN_ROUTES && env.VERCEL) {
      ctx.addIssue({ code: "custom", path: ["E2E_ADMIN_ROUTES"], message: "must not be enabled in a deployment: it lets anyone change the catalog" });
    }
    if (env.SIMULATED_PAYMENTS && env.VERCEL_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["SIMULATED_PAYMENTS"], message: "must not be enabled on a production deployment: it accepts Stripe's test cards as payment; configure STRIPE_SECRET_KEY" });
    }
    if (env.DEV_OUTBOX && env.VERCEL_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["DEV_OUTBOX"], message: "must not be enabled on a production deployment: it publishes every sign-in code; configure SMTP_URL" });
    }
    if (env.TEST_CLOCK_CONTROL && env.VERCEL) {
      ctx.addIssue({ code: "custom", path: ["TEST_CLOCK_CONTROL"], message: "must not be enabled in a deployment: it lets any client choose the time the service sees" });
    }
    if (Boolean(env.COURIER_API_URL) !== Boolean(env.COURIER_API_KEY)) {
      ctx.addIssue({ code: "custom", path: ["COURIER_API_KEY"], message: "COURIER_API_URL and COURIER_API_KEY go together" });
    }
    if (env.SMTP_URL && !env.EMAIL_FROM) {
      ctx.addIssue({ code: "custom", path: ["EMAIL_FROM"], message: "is required with SMTP_URL: the sender address of one-time sign-in codes" });
    }
    if (Boolean(env.UPSTASH_REDIS_REST_URL) !== Boolean(env.UPSTASH_REDIS_REST_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: ["UPSTASH_REDIS_REST_TOKEN"],
        message: "UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together",
      });
    }
  });

export type Env = Omit<z.infer<typeof envSchema>, "DATABASE_PREPARE" | "VALIDATE_RESPONSES"> & {
  /** Upstash REST endpoint under either naming scheme (Upstash's own, or Vercel's KV integration). */
  upstash: { url: string; token: string } | undefined;
  /** Secret used to derive token-hashing and sealing keys. */
  secret: string;
  /** DATABASE_PREPARE as decided: the explicit value, else off behind a transaction-mode pooler. */
  DATABASE_PREPARE: boolean;
  /** VALIDATE_RESPONSES as decided: the explicit value, else on outside production. */
  VALIDATE_RESPONSES: boolean;
  /** Where `npm run db:migrate` connects: the direct URL when one is configured, else DATABASE_URL. */
  migrationDatabaseUrl: string | undefined;
  /** Valid but doubtful settings, logged at start-up and by db:migrate. */
  warnings: string[];
};

/** Used only when AUTH_SECRET is unset outside Vercel: fine for a laptop, logged as a warning. */
const DEVELOPMENT_SECRET = "development-only-secret-do-not-use-in-production-0000";

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse({ ...source, DATABASE_URL: source.DATABASE_URL || source.POSTGRES_URL || undefined });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = result.data;
  const upstashUrl = env.UPSTASH_REDIS_REST_URL ?? env.KV_REST_API_URL;
  const upstashToken = env.UPSTASH_REDIS_REST_TOKEN ?? env.KV_REST_API_TOKEN;
  const pooler = transactionPoolerHint(env.DATABASE_URL);
  const migrationDatabaseUrl = env.DATABASE_URL_UNPOOLED ?? env.POSTGRES_URL_NON_POOLING ?? env.DATABASE_URL;
  const migrationPooler = transactionPoolerHint(migrationDatabaseUrl);
  const warnings: string[] = [];
  if (pooler && env.DATABASE_PREPARE === true) {
    warnings.push(`DATABASE_PREPARE=true but DATABASE_URL looks like a transaction-mode pooler (${pooler}): prepared statements break there; set DATABASE_PREPARE=false`);
  }
  if (migrationPooler) {
    warnings.push(`migrations would run through a transaction-mode pooler (${migrationPooler}): set DATABASE_URL_UNPOOLED (or POSTGRES_URL_NON_POOLING) to the direct URL so the migration lock holds`);
  }
  if (env.TEST_CLOCK_CONTROL) warnings.push("TEST_CLOCK_CONTROL is on: clients can set the time this service sees (X-Test-Clock); for the test harness only");
  if (!env.CRON_SECRET && env.VERCEL_ENV === "production") warnings.push("CRON_SECRET is unset: the background-job routes answer 404, so Vercel Cron cannot run them");
  return {
    ...env,
    DATABASE_PREPARE: env.DATABASE_PREPARE ?? !pooler,
    VALIDATE_RESPONSES: env.VALIDATE_RESPONSES ?? env.NODE_ENV !== "production",
    migrationDatabaseUrl,
    warnings,
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : undefined,
    secret: env.AUTH_SECRET ?? DEVELOPMENT_SECRET,
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Whether card payments may go to the simulated processor (SIMULATED_PAYMENTS; unset: see there). */
export function simulatedPaymentsAllowed(env: Pick<Env, "SIMULATED_PAYMENTS" | "NODE_ENV" | "DATABASE_URL" | "VERCEL_ENV">): boolean {
  return env.SIMULATED_PAYMENTS ?? (env.NODE_ENV !== "production" || !env.DATABASE_URL || env.VERCEL_ENV === "preview");
}
