import postgres from "postgres";
import { migrate, openPostgres } from "../db/open";
import { seedDemoData } from "../db/seed";

export const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const TEMPLATE_DB = "storefront_test_template";

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Vitest globalSetup for the Postgres project: one migrated, seeded template per run. */
export default async function setup(): Promise<() => Promise<void>> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  const handle = await openPostgres(databaseUrl(TEMPLATE_DB), {
    DATABASE_POOL_MAX: 2,
    DATABASE_PREPARE: true,
    DATABASE_CONNECT_TIMEOUT_SECONDS: 5,
    DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
  });
  await migrate(handle);
  await seedDemoData(handle.db);
  await handle.close();
  await admin.end();
  return async () => {
    const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
    const leftovers = await cleanup<{ datname: string }[]>`select datname from pg_database where datname like 'storefront_test_%'`;
    for (const { datname } of leftovers) await cleanup.unsafe(`drop database if exists ${datname} with (force)`);
    await cleanup.end();
  };
}
