import { getEnv } from "../server/env";
import { redactConnectionUrl } from "./connection-url";
import { migrate, openPglite, openPostgres } from "./open";
import { seedDemoData } from "./seed";
import { demoSeedDecision } from "./seed-policy";

/**
 * `npm run db:migrate` (and the first half of `vercel-build`): applies the committed migrations
 * to the direct database URL (DATABASE_URL_UNPOOLED / POSTGRES_URL_NON_POOLING, else DATABASE_URL;
 * the local PGlite when none is set), then seeds the demo data when `demoSeedDecision` says so,
 * all under one advisory lock so that concurrent deploys cannot interleave.
 */
async function main(): Promise<void> {
  const env = getEnv();
  for (const warning of env.warnings) console.warn(`[db:migrate] warning: ${warning}`);
  const url = env.migrationDatabaseUrl;
  const handle = url
    ? await openPostgres(url, {
        DATABASE_POOL_MAX: 2,
        DATABASE_PREPARE: false,
        DATABASE_CONNECT_TIMEOUT_SECONDS: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
        // A migration may rebuild an index; the request-sized timeout would cut it off.
        DATABASE_STATEMENT_TIMEOUT_MS: Math.max(env.DATABASE_STATEMENT_TIMEOUT_MS, 10 * 60_000),
      })
    : await openPglite(env.PGLITE_DATA_DIR);
  const decision = demoSeedDecision(env);
  console.log(`[db:migrate] applying migrations to ${url ? redactConnectionUrl(url) : `PGlite in ${env.PGLITE_DATA_DIR}`}`);
  try {
    await migrate(handle, {
      thenUnderLock: async (db) => {
        if (!decision.seed) {
          console.log(`[db:migrate] demo data not seeded: ${decision.reason}`);
          return;
        }
        console.log(`[db:migrate] seeding demo data: ${decision.reason}`);
        await seedDemoData(db);
      },
    });
  } finally {
    await handle.close();
  }
  console.log("[db:migrate] done");
}

main().catch((error: unknown) => {
  console.error("[db:migrate] failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
