import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrate, openPostgres } from "../db/open";
import { seedDemoData } from "../db/seed";

export const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** This run's template database and the prefix of every database the run creates. */
    postgresRun: { template: string; prefix: string };
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Vitest globalSetup for the Postgres project: one migrated, seeded template per run, named for
 * the run, so that two runs on one machine (two developers, or CI next to a local run) never drop
 * each other's databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prefix = `storefront_test_${randomBytes(4).toString("hex")}`;
  const template = `${prefix}_template`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${template}`);
  const handle = await openPostgres(databaseUrl(template), {
    DATABASE_POOL_MAX: 2,
    DATABASE_PREPARE: true,
    DATABASE_CONNECT_TIMEOUT_SECONDS: 5,
    DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
  });
  await migrate(handle);
  await seedDemoData(handle.db);
  await handle.close();
  await admin.end();
  project.provide("postgresRun", { template, prefix });
  return async () => {
    const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
    const mine = await cleanup<{ datname: string }[]>`select datname from pg_database where datname like ${`${prefix}%`}`;
    for (const { datname } of mine) await cleanup.unsafe(`drop database if exists ${datname} with (force)`);
    await cleanup.end();
  };
}
