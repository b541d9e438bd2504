import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { Env } from "../server/env";
import type { DatabaseHandle, Db } from "./client";
import { schema } from "./client";
import { migrationsFolder } from "./migrations-path";

/** Connects to Postgres through the `postgres` driver with bounded timeouts. */
export async function openPostgres(url: string, env: Pick<Env, "DATABASE_POOL_MAX" | "DATABASE_PREPARE" | "DATABASE_CONNECT_TIMEOUT_SECONDS" | "DATABASE_STATEMENT_TIMEOUT_MS">): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, {
    max: env.DATABASE_POOL_MAX,
    prepare: env.DATABASE_PREPARE,
    connect_timeout: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
    idle_timeout: 30,
    max_lifetime: 60 * 30,
    onnotice: () => undefined,
    connection: {
      statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS * 2,
      application_name: "storefront-ordering-service",
    },
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** Opens (creating if needed) the embedded PGlite database in `dataDir`, or in memory for `memory://`. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle & { pglite: PGlite }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  if (!dataDir.startsWith("memory://")) mkdirSync(path.resolve(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir.startsWith("memory://") ? undefined : path.resolve(dataDir));
  const db = drizzle(pglite, { schema }) as unknown as Db;
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

export async function migrate(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    // The migrator needs the concrete PGlite database type; ours is the shared supertype.
    await run(handle.db as never, { migrationsFolder: migrationsFolder() });
  } else {
    const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
    await run(handle.db as never, { migrationsFolder: migrationsFolder() });
  }
}
