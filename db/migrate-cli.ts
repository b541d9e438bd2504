import { getEnv } from "../server/env";
import { migrate, openPglite, openPostgres } from "./open";

/** `npm run db:migrate`: applies committed migrations to DATABASE_URL (or the local PGlite). */
async function main(): Promise<void> {
  const env = getEnv();
  const handle = env.DATABASE_URL ? await openPostgres(env.DATABASE_URL, env) : await openPglite(env.PGLITE_DATA_DIR);
  console.log(`[db:migrate] applying migrations to ${handle.kind}`);
  await migrate(handle);
  await handle.close();
  console.log("[db:migrate] done");
}

main().catch((error: unknown) => {
  console.error("[db:migrate] failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
