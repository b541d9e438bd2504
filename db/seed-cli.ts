import { getEnv } from "../server/env";
import { openPglite, openPostgres } from "./open";
import { seedDemoData } from "./seed";

/** `npm run db:seed`: upserts the demo merchants, locations and menus. Safe to run repeatedly. */
async function main(): Promise<void> {
  const env = getEnv();
  const handle = env.DATABASE_URL ? await openPostgres(env.DATABASE_URL, env) : await openPglite(env.PGLITE_DATA_DIR);
  console.log(`[db:seed] seeding demo data into ${handle.kind}`);
  await seedDemoData(handle.db);
  await handle.close();
  console.log("[db:seed] done");
}

main().catch((error: unknown) => {
  console.error("[db:seed] failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
