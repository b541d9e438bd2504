import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { sql } from "drizzle-orm";
import { noDelaySocketsFor } from "./tcp-socket";
import type { Env } from "../server/env";
import type { DatabaseHandle, Db } from "./client";
import { boundedClient } from "./bounded-client";
import { normalizeConnectionUrl } from "./connection-url";
import { migrationsFolder } from "./migrations-path";

type PostgresSettings = Pick<Env, "DATABASE_POOL_MAX" | "DATABASE_PREPARE" | "DATABASE_CONNECT_TIMEOUT_SECONDS" | "DATABASE_STATEMENT_TIMEOUT_MS"> &
  Partial<Pick<Env, "DATABASE_QUEUE_TIMEOUT_MS">>;

/** DATABASE_QUEUE_TIMEOUT_MS's default, for callers (scripts, tests) that pass explicit settings. */
const DEFAULT_QUEUE_TIMEOUT_MS = 5_000;

/** Where `migrate` opens its lock session for a Postgres database (keyed by the handle's `db`, which wrappers keep). */
const lockTargets = new WeakMap<Db, { url: string; connectTimeoutSeconds: number }>();

/**
 * Seconds before a pooled connection that failed connects again, by consecutive failures. The
 * driver's default grows to 20 s, so after an outage the service kept answering 503 for up to that
 * long once the database was back; capped at 1 s (with jitter) it recovers within about a second,
 * while a server that is down still sees at most one attempt per pooled connection per second.
 */
export const reconnectBackoffSeconds = (failures: number): number => Math.min(1, 0.05 * 2 ** failures) * (0.5 + Math.random() / 2);

/** Connects to Postgres through the `postgres` driver with bounded timeouts. */
export async function openPostgres(url: string, env: PostgresSettings): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const client = postgres(normalizeConnectionUrl(url), {
    max: env.DATABASE_POOL_MAX,
    prepare: env.DATABASE_PREPARE,
    connect_timeout: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
    idle_timeout: 30,
    max_lifetime: 60 * 30,
    backoff: reconnectBackoffSeconds,
    onnotice: () => undefined,
    ...noDelaySocketsFor(url),
    connection: {
      statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS * 2,
      application_name: "storefront-ordering-service",
    },
  });
  const db = await drizzleOverPostgres(client, env);
  lockTargets.set(db, { url: normalizeConnectionUrl(url), connectTimeoutSeconds: env.DATABASE_CONNECT_TIMEOUT_SECONDS });
  return {
    db,
    kind: "postgres",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * The service's database over a `postgres` client: every query and transaction bounded, statements
 * prepared as DATABASE_PREPARE says (./bounded-client.ts). The bench's counting connection is built
 * here too, so what it measures is what the service runs.
 */
export async function drizzleOverPostgres(client: Sql, env: PostgresSettings): Promise<Db> {
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const bounds = { queueTimeoutMs: env.DATABASE_QUEUE_TIMEOUT_MS ?? DEFAULT_QUEUE_TIMEOUT_MS, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS };
  return drizzle(boundedClient(client, bounds, { prepare: env.DATABASE_PREPARE }));
}

/** Opens (creating if needed) the embedded PGlite database in `dataDir`, or in memory for `memory://`. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle & { pglite: PGlite }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  if (!dataDir.startsWith("memory://")) mkdirSync(path.resolve(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir.startsWith("memory://") ? undefined : path.resolve(dataDir));
  const db = drizzle(pglite) as unknown as Db;
  return {
    db,
    pglite,
    kind: "pglite",
    ping: async () => {
      await pglite.query("select 1");
    },
    close: () => pglite.close(),
  };
}

/** Any fixed 64-bit number names the lock; every migrating process must use the same one. */
const MIGRATION_LOCK_KEY = "7265109381204587";

export type MigrateOptions = {
  /** More work that must not overlap another deploy's (seeding), run under the same lock after the migrations. */
  thenUnderLock?: (db: Db) => Promise<void>;
  /** How long to wait for another process's migration before giving up (Postgres only). */
  lockWaitMs?: number;
};

/**
 * Applies the committed migrations. On Postgres the whole run holds a session advisory lock, taken
 * on a connection of its own: two deploys migrating one database at once run one after the other,
 * and the second finds nothing left to apply. (drizzle's migrator creates its bookkeeping table
 * outside its transaction and reads the applied list before it, so without the lock two fresh runs
 * both try to create every table.) PGlite is one process per data directory: no lock needed.
 */
export async function migrate(handle: DatabaseHandle, options: MigrateOptions = {}): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    // The migrator needs the concrete PGlite database type; ours is the shared supertype.
    await run(handle.db as never, { migrationsFolder: migrationsFolder() });
    await options.thenUnderLock?.(handle.db);
    return;
  }
  const target = lockTargets.get(handle.db);
  if (!target) throw new Error("migrate: this Postgres handle was not opened by openPostgres, so its lock session cannot be opened");
  const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
  await withSessionLock(target, options.lockWaitMs ?? 5 * 60_000, async () => {
    await run(handle.db as never, { migrationsFolder: migrationsFolder() });
    await options.thenUnderLock?.(handle.db);
  });
}

async function withSessionLock(target: { url: string; connectTimeoutSeconds: number }, waitMs: number, work: () => Promise<void>): Promise<void> {
  const { default: postgres } = await import("postgres");
  const client = postgres(target.url, {
    max: 1,
    prepare: false,
    connect_timeout: target.connectTimeoutSeconds,
    onnotice: () => undefined,
    // lock_timeout bounds the wait for the advisory lock; the session ends (releasing it) if we crash.
    connection: { application_name: "storefront-ordering-service:migrate", lock_timeout: waitMs, statement_timeout: waitMs + 5_000 },
  });
  try {
    const session = await client.reserve();
    try {
      await session`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`;
      try {
        await work();
      } finally {
        await session`select pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`.catch(() => undefined);
      }
    } finally {
      session.release();
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}
