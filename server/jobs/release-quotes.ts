import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { carts } from "../../db/schema";
import { isAppError } from "../errors";
import { lockCart, type CartRow } from "../services/cart-access";
import { cartUpdate } from "../services/carts";
import { writeNow } from "../services/idempotency";
import { repriceCart } from "../services/cart-pricing";
import { findLocation, type LocationWithMerchant } from "../services/locations";
import { reconcileWithCatalog } from "../services/revalidation";
import { untilDone } from "./batches";
import type { Job } from "./types";

/** The status a released courier quote carries (the spec's deliveryQuote.status is free text). */
export const RELEASED_QUOTE_STATUS = "expired";

/**
 * Releases courier quotes that ran out on OPEN delivery carts. The quote stays on the cart, marked
 * `status: "expired"` (its fee and tax remain the last known price, so totals do not silently drop),
 * and the cart records the renewal exactly as any cart change would: `reconcileWithCatalog` flags
 * QUOTE_EXPIRED in catalogRevalidation, the cart is re-priced (its own quote expires with the
 * courier's), and the revision goes up, so checkout asks for PUT .../validate-and-update, which
 * fetches a new quote. The cart's idle expiry is not extended: no customer did anything.
 *
 * Rows are claimed with FOR UPDATE SKIP LOCKED and written with a compare-and-set on the revision.
 */
export const releaseQuotes: Job = async ({ deps, batchSize, deadline }) => {
  let released = 0;
  let skipped = 0;
  // Carts that cannot be released (unpublished location, changed meanwhile) are passed by the cursor, not retried in this run.
  let after = "";
  const result = await untilDone(batchSize, deadline, () =>
    deps.database.db.transaction(async (tx) => {
      const now = deps.now();
      const due = await tx
        .select({ id: carts.id, locationId: carts.locationId })
        .from(carts)
        .where(
          and(
            eq(carts.status, "OPEN"),
            gt(carts.expiresAt, now),
            eq(carts.fulfilmentMethod, "delivery"),
            isNotNull(carts.deliveryQuote),
            sql`(${carts.deliveryQuote}->>'expiresAt')::timestamptz <= ${now.toISOString()}::timestamptz`,
            sql`coalesce(${carts.deliveryQuote}->>'status', '') <> ${RELEASED_QUOTE_STATUS}`,
            gt(carts.id, after),
          ),
        )
        .orderBy(asc(carts.id))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      const locations = new Map<string, LocationWithMerchant | null>();
      for (const { id, locationId } of due) {
        const location = await locationOf(tx, locations, locationId);
        // Locked above; read again with its lines.
        const cart = location ? await lockCart(tx, id) : undefined;
        if (location && cart && (await release(tx, cart, location, now))) released += 1;
        else skipped += 1;
        after = id;
      }
      return due.length;
    }),
  );
  return { processed: released, batches: result.batches, complete: result.complete, details: { released, skipped } };
};

async function release(tx: Tx, cart: CartRow, location: LocationWithMerchant, now: Date): Promise<boolean> {
  const quote = cart.deliveryQuote;
  if (!quote) return false;
  const patch = { deliveryQuote: { ...quote, status: RELEASED_QUOTE_STATUS } };
  const reconciled = await reconcileWithCatalog({ tx, cart, location, now }, patch);
  const next = { ...cart, ...patch, ...reconciled };
  const written: CartRow = { ...next, ...repriceCart(next, location, now), revision: cart.revision + 1, updatedAt: now };
  const update = cartUpdate(cart, written, cart.revision);
  return (await writeNow(tx, update.statement, update.alongside)).length > 0;
}

async function locationOf(tx: Tx, cache: Map<string, LocationWithMerchant | null>, id: string): Promise<LocationWithMerchant | null> {
  if (!cache.has(id)) {
    try {
      cache.set(id, await findLocation(tx, id, { allowSlug: false }));
    } catch (error) {
      // An unpublished location: its carts cannot be re-priced against it; leave them as they are.
      if (isAppError(error) && error.code === "NOT_FOUND") cache.set(id, null);
      else throw error;
    }
  }
  return cache.get(id) ?? null;
}
