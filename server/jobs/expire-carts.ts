import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { carts } from "../../db/schema";
import { untilDone } from "./batches";
import type { Job } from "./types";

/**
 * OPEN carts past their idle expiry become EXPIRED, with a new revision (a cached ETag then no
 * longer matches). Reads already show such carts as EXPIRED (`effectiveStatus`); this makes the
 * row say so. Only OPEN carts: a LOCKED cart is in the middle of a payment and is the
 * reconciliation job's. The UPDATE re-checks status and expiry, so a cart touched since it was
 * selected (its expiry moved on) is left alone.
 */
export const expireCarts: Job = async ({ deps, batchSize, deadline }) => {
  const { db } = deps.database;
  const result = await untilDone(batchSize, deadline, () =>
    db.transaction(async (tx) => {
      const now = deps.now();
      const due = await tx
        .select({ id: carts.id })
        .from(carts)
        .where(and(eq(carts.status, "OPEN"), lte(carts.expiresAt, now)))
        .orderBy(asc(carts.expiresAt))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      if (due.length === 0) return 0;
      const expired = await tx
        .update(carts)
        .set({ status: "EXPIRED", revision: sql`${carts.revision} + 1`, updatedAt: now })
        .where(and(inArray(carts.id, due.map((row) => row.id)), eq(carts.status, "OPEN"), lte(carts.expiresAt, now)))
        .returning({ id: carts.id });
      return expired.length;
    }),
  );
  return { ...result, details: { expired: result.processed } };
};
