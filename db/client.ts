import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Schema = typeof schema;
/** PGlite and postgres-js databases share this type; services never know which one they have. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export type DatabaseHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Cheap round trip used by readiness checks. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export { schema };
