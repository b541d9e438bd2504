import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { queryRows } from "../db/rows";

/**
 * Runs `statement` in a transaction of its own and keeps that transaction open, with the locks the
 * statement took, until the returned `release` is called (it resolves once the transaction ended).
 */
export async function holdInTransaction(db: Db, statement: SQL): Promise<() => Promise<void>> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = db.transaction(async (tx) => {
    await tx.execute(statement);
    held();
    await released;
  });
  await Promise.race([holding, transaction]);
  return async () => {
    release();
    await transaction;
  };
}

/** Resolves once a statement of this database whose text matches `pattern` (ILIKE) waits on a lock. */
export async function untilLockWait(db: Db, pattern: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const [waiting] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`,
    );
    if ((waiting?.count ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no statement like ${pattern} waited on a lock`);
}
