import { count } from "drizzle-orm";
import type { DatabaseHandle } from "../../db/client";
import { migrate, openPglite, openPostgres } from "../../db/open";
import { merchants } from "../../db/schema";
import { seedDemoData } from "../../db/seed";
import { getEnv, type Env } from "../env";
import { createCourier } from "../integrations/courier";
import { createPaymentProcessor } from "../integrations/payments";
import { createRateLimiter } from "../integrations/rate-limit";
import type { AppDeps } from "./deps";

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

export async function buildDeps(env: Env): Promise<AppDeps> {
  const [database, rateLimiter] = await Promise.all([openDatabase(env), createRateLimiter(env)]);
  return { env, database, rateLimiter, payments: createPaymentProcessor(env), courier: createCourier(env), now: () => new Date() };
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
