import postgres from "postgres";
import { migrate, openPostgres } from "../db/open";
import { seedDemoData } from "../db/seed";
import { insertMenuLocation } from "./fixtures/menu-location";

export const BENCH_DATABASE = "storefront_bench";
/** The bench-only location with a large menu, for the query-count check. */
export const LARGE_MENU_LOCATION = { id: "loc_bench_large_menu", productCount: 500 };
/** The menu-size phase: 10 -> 500 -> 5,000 products (the 500 one is LARGE_MENU_LOCATION). */
export const MENU_SCALING_LOCATIONS = [{ id: "loc_bench_menu_10", productCount: 10 }, LARGE_MENU_LOCATION, { id: "loc_bench_menu_5000", productCount: 5_000 }];

const ADMIN_URL = process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function benchDatabaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

/** Production with its own database refuses to start without a real secret; this one is bench-only. */
export const BENCH_AUTH_SECRET = "bench-only-auth-secret-not-for-deployments";

export const poolSettings = {
  DATABASE_POOL_MAX: 10,
  DATABASE_PREPARE: true,
  DATABASE_CONNECT_TIMEOUT_SECONDS: 5,
  DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
} as const;

async function admin<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A fresh `storefront_bench`: dropped if it exists, created, migrated, seeded, plus the large-menu location. */
export async function createBenchDatabase(): Promise<string> {
  await admin(async (sql) => {
    await sql.unsafe(`drop database if exists ${BENCH_DATABASE} with (force)`);
    await sql.unsafe(`create database ${BENCH_DATABASE}`);
  });
  const url = benchDatabaseUrl();
  const handle = await openPostgres(url, poolSettings);
  try {
    await migrate(handle);
    await seedDemoData(handle.db);
    for (const location of MENU_SCALING_LOCATIONS) await insertMenuLocation(handle.db, { locationId: location.id, productCount: location.productCount });
  } finally {
    await handle.close();
  }
  return url;
}

export async function dropBenchDatabase(): Promise<void> {
  await admin((sql) => sql.unsafe(`drop database if exists ${BENCH_DATABASE} with (force)`));
}
