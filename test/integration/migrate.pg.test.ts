import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate, openPostgres } from "../../db/open";
import { runCli } from "../cli";
import { ADMIN_URL, databaseUrl } from "../postgres-template";

/**
 * `npm run db:migrate` as a deploy runs it: two deploys migrating one fresh database at once, the
 * advisory lock that serialises them, and the demo-data decision. Postgres only.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const journal = JSON.parse(readFileSync(path.join(ROOT, "db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
const MIGRATION_LOCK_KEY = "7265109381204587";

let admin: postgres.Sql;
beforeAll(() => {
  admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
});
afterAll(async () => {
  await admin.end();
});

/** An empty database named with this run's prefix (the run's teardown drops it). */
async function emptyDatabase(): Promise<string> {
  const name = `${inject("postgresRun").prefix}_mig_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  return databaseUrl(name);
}

const migrateCli = (env: Record<string, string>) => runCli("db/migrate-cli.ts", [], { NODE_ENV: "production", ...env });

async function inspect(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [applied] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    const [tables] = await sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
    const [merchants] = await sql<{ n: number }[]>`select count(*)::int as n from merchants`;
    return { applied: applied?.n ?? 0, tables: tables?.n ?? 0, merchants: merchants?.n ?? 0 };
  } finally {
    await sql.end();
  }
}

describe("db:migrate during deploys", () => {
  it("two concurrent runs on a fresh database both succeed and apply each migration once", async () => {
    const url = await emptyDatabase();
    const [first, second] = await Promise.all([migrateCli({ DATABASE_URL: url }), migrateCli({ DATABASE_URL: url })]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    const state = await inspect(url);
    expect(state.applied).toBe(journal.entries.length);
    expect(state.tables).toBeGreaterThanOrEqual(8);
    expect(state.merchants).toBe(0);
  });

  it("waits while another process holds the migration lock, then finds its work done", async () => {
    const url = await emptyDatabase();
    const holder = postgres(url, { max: 1, onnotice: () => undefined });
    const session = await holder.reserve();
    await session`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`;
    const handle = await openPostgres(url, { DATABASE_POOL_MAX: 2, DATABASE_PREPARE: false, DATABASE_CONNECT_TIMEOUT_SECONDS: 5, DATABASE_STATEMENT_TIMEOUT_MS: 30_000 });
    try {
      let finished = false;
      const running = migrate(handle).then(() => (finished = true));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(finished).toBe(false);
      const [schema] = await session<{ n: number }[]>`select count(*)::int as n from information_schema.schemata where schema_name = 'drizzle'`;
      expect(schema?.n).toBe(0);

      await session`select pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`;
      await running;
      expect((await inspect(url)).applied).toBe(journal.entries.length);
    } finally {
      session.release();
      await holder.end();
      await handle.close();
    }
  });

  it("seeds the demo data on a preview deployment, never on production", async () => {
    const preview = await emptyDatabase();
    const seeded = await migrateCli({ DATABASE_URL: preview, VERCEL_ENV: "preview" });
    expect(seeded.code, seeded.output).toBe(0);
    expect(seeded.output).toMatch(/seeding demo data: a Vercel preview deployment/);
    expect((await inspect(preview)).merchants).toBeGreaterThanOrEqual(2);

    const production = await emptyDatabase();
    const plain = await migrateCli({ DATABASE_URL: production, VERCEL_ENV: "production", SEED_DEMO_DATA: "true" });
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toMatch(/not seeded: production deployments are never seeded/);
    expect((await inspect(production)).merchants).toBe(0);
  });

  it("migrates through the direct URL when DATABASE_URL is a pooler's, and never prints a password", async () => {
    const direct = await emptyDatabase();
    // A pooled-looking URL that cannot be reached: only the direct one may be used for migrations.
    const pooled = "postgres://postgres:pooled-secret-pw@127.0.0.1:1/none?pgbouncer=true";
    const run = await migrateCli({ DATABASE_URL: pooled, DATABASE_URL_UNPOOLED: direct });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`applying migrations to ${direct}`);
    expect(run.output).not.toMatch(/secret-pw/);
    expect((await inspect(direct)).applied).toBe(journal.entries.length);

    // Without a direct URL the migration goes to DATABASE_URL, with a warning that the lock cannot hold
    // behind a pooler (this one is unreachable, so the run then fails).
    const warned = await migrateCli({ DATABASE_URL: pooled });
    expect(warned.code).toBe(1);
    expect(warned.output).toMatch(/warning: migrations would run through a transaction-mode pooler/);
    expect(warned.output).not.toMatch(/secret-pw/);
  });
});
