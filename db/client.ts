import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";

/**
 * Drizzle is opened without the schema: the relational API (`db.query`) is not used, and with a
 * schema every transaction object builds one relational query builder per table when it opens
 * (PgDatabase's constructor), on every request.
 */
type NoRelationalSchema = Record<string, never>;
/** PGlite and postgres-js databases share this type; services never know which one they have. */
export type Db = PgDatabase<PgQueryResultHKT, NoRelationalSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, NoRelationalSchema, ExtractTablesWithRelations<NoRelationalSchema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export type DatabaseHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Cheap round trip used by readiness checks. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

