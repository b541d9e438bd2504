import { sql } from "drizzle-orm";
import { idempotencyLeases, idempotencyRecords } from "../../db/schema";
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
  const { db } = deps.database;
  const table = idempotencyRecords;
  const result = await untilDone(batchSize, deadline, async () => {
    const now = deps.now().toISOString();
    const deleted = await db
      .delete(table)
      .where(
        sql`(${table.scope}, ${table.key}) in (
          select scope, key from idempotency_records
          where expires_at <= ${now}::timestamptz
          limit ${batchSize}
          for update skip locked)`,
      )
      .returning({ key: table.key });
    return deleted.length;
  });
  const leases = await untilDone(batchSize, deadline, async () => {
    const now = deps.now().toISOString();
    const deleted = await db
      .delete(idempotencyLeases)
      .where(
        sql`(${idempotencyLeases.scope}, ${idempotencyLeases.key}) in (
          select scope, key from idempotency_leases
          where expires_at <= ${now}::timestamptz
          limit ${batchSize}
          for update skip locked)`,
      )
      .returning({ key: idempotencyLeases.key });
    return deleted.length;
  });
  return {
    processed: result.processed + leases.processed,
    batches: result.batches + leases.batches,
    complete: result.complete && leases.complete,
    details: { deleted: result.processed, leasesDeleted: leases.processed },
  };
};
