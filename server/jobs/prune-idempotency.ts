import { getTableName, sql } from "drizzle-orm";
import { idempotencyLeases, idempotencyRecords } from "../../db/schema";
import type { AppDeps } from "../app/deps";
import { untilDone } from "./batches";
import type { Job } from "./types";

/**
 * Deletes stored outcomes past IDEMPOTENCY_RETENTION_HOURS (their `expires_at`). An expired record
 * already replays nothing (a new request with its key takes it over), so this only
 * reclaims space. Batches are claimed with SKIP LOCKED: a record a request is rewriting right now
 * is skipped, and two instances pruning at once delete different rows. Expired key leases go too:
 * a lease is left to expire after its write succeeded (its record answers from then on).
 */
export const pruneIdempotency: Job = async ({ deps, batchSize, deadline }) => {
  const records = await untilDone(batchSize, deadline, () => deleteExpired(deps, idempotencyRecords, batchSize));
  const leases = await untilDone(batchSize, deadline, () => deleteExpired(deps, idempotencyLeases, batchSize));
  return {
    processed: records.processed + leases.processed,
    batches: records.batches + leases.batches,
    complete: records.complete && leases.complete,
    details: { deleted: records.processed, leasesDeleted: leases.processed },
  };
};

/** One batch of a keyed table's rows past their `expires_at`: how many were deleted. */
async function deleteExpired(deps: AppDeps, table: typeof idempotencyRecords | typeof idempotencyLeases, batchSize: number): Promise<number> {
  const now = deps.now().toISOString();
  const deleted = await deps.database.db
    .delete(table)
    .where(
      sql`(${table.scope}, ${table.key}) in (
        select scope, key from ${sql.identifier(getTableName(table))}
        where expires_at <= ${now}::timestamptz
        limit ${batchSize}
        for update skip locked)`,
    )
    .returning({ key: table.key });
  return deleted.length;
}
