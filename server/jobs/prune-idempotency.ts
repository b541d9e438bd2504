import { sql } from "drizzle-orm";
import { idempotencyRecords } from "../../db/schema";
import { untilDone } from "./batches";
import type { Job } from "./types";

/**
 * Deletes stored outcomes past IDEMPOTENCY_RETENTION_HOURS (their `expires_at`). An expired record
 * already replays nothing (a new request with its key takes it over), so this only
 * reclaims space. Batches are claimed with SKIP LOCKED: a record a request is rewriting right now
 * is skipped, and two instances pruning at once delete different rows.
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
  return { ...result, details: { deleted: result.processed } };
};
