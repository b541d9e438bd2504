import { count } from "drizzle-orm";
import type { DatabaseHandle } from "../../db/client";
import { migrate, openPglite, openPostgres } from "../../db/open";
import { merchants } from "../../db/schema";
import { seedDemoData } from "../../db/seed";
import { getEnv, type Env } from "../env";
import { createCourier } from "../integrations/courier";
import { createOtpDelivery } from "../integrations/otp-delivery";
import { createPaymentProcessor } from "../integrations/payments";
import { createRateLimiter } from "../integrations/rate-limit";
import { createResponseCache } from "../http/response-cache";
import { createRenderedCarts } from "../services/rendered-carts";
import { createKeptCartLines } from "../services/kept-cart-lines";
import { createCatalogCache } from "../services/catalog-cache";
import type { AppDeps } from "./deps";
import { localSecret } from "./local-secret";
import { serviceClock } from "./test-clock";

/**
 * The database: Postgres when DATABASE_URL is set (migrated by `npm run db:migrate`), else the
 * embedded PGlite in PGLITE_DATA_DIR, migrated and seeded with the demo data on first start.
 */
export async function openDatabase(env: Env): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL, env);
  const handle = await openPglite(env.PGLITE_DATA_DIR);
  await migrate(handle);
  const [row] = await handle.db.select({ n: count() }).from(merchants);
  if ((row?.n ?? 0) === 0) await seedDemoData(handle.db);
  return handle;
}

/**
 * The secret that signs customer tokens and seals stored responses. A real deployment (Vercel, or
 * production with its own database) must configure AUTH_SECRET: the development fallback is in the
 * source, so anything signed with it is forgeable. The zero-configuration production build on the
 * embedded database generates and keeps a random local one instead. Checked here, at server start,
 * rather than in env.ts, because the migrate and seed commands need no secret.
 */
export function withServerSecret(env: Env): Env {
  if (env.AUTH_SECRET || env.NODE_ENV !== "production") return env;
  if (env.VERCEL || env.DATABASE_URL) {
    throw new Error("Invalid configuration:\n  AUTH_SECRET: is required in production with DATABASE_URL or on Vercel (32+ random characters)");
  }
  const where = env.PGLITE_DATA_DIR.startsWith("memory://") ? "for this process only (in-memory database)" : "and kept beside the embedded database";
  return {
    ...env,
    secret: localSecret(env.PGLITE_DATA_DIR),
    warnings: [...env.warnings, `AUTH_SECRET is unset: a random secret was generated ${where}; it signs customer tokens and seals stored responses. Set AUTH_SECRET (32+ random characters) to choose it`],
  };
}

/** Every dependency but the database, each from its configuration (real service or embedded default). */
export async function buildIntegrations(env: Env, now: () => Date): Promise<Omit<AppDeps, "env" | "database" | "now">> {
  return {
    rateLimiter: await createRateLimiter(env),
    payments: createPaymentProcessor(env),
    courier: createCourier(env),
    otpDelivery: createOtpDelivery(env),
    responseCache: createResponseCache(env.RESPONSE_CACHE_TTL_MS, now),
    catalogCache: createCatalogCache(),
    renderedCarts: createRenderedCarts(),
    keptCartLines: createKeptCartLines(),
  };
}

export async function buildDeps(configured: Env): Promise<AppDeps> {
  const env = withServerSecret(configured);
  const now = serviceClock(env.TEST_CLOCK_CONTROL);
  const [database, integrations] = await Promise.all([openDatabase(env), buildIntegrations(env, now)]);
  return { env, database, ...integrations, now };
}

const globalStore = globalThis as typeof globalThis & { __storefrontDeps?: Promise<AppDeps> };

/**
 * One set of dependencies per process, kept on globalThis so that dev-server module reloads do
 * not open a second PGlite on the same data directory. A failed start is not cached.
 */
export function getAppDeps(): Promise<AppDeps> {
  if (!globalStore.__storefrontDeps) {
    const pending = buildDeps(getEnv());
    globalStore.__storefrontDeps = pending;
    pending.catch(() => {
      if (globalStore.__storefrontDeps === pending) globalStore.__storefrontDeps = undefined;
    });
  }
  return globalStore.__storefrontDeps;
}
