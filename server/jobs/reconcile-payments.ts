import { and, asc, eq, gt, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { carts, orders, paymentAttempts, paymentSessions } from "../../db/schema";
import type { AppDeps } from "../app/deps";
import { toAppError } from "../errors-map";
import { logger } from "../log";
import { AUTHORIZATION_WINDOW_MS } from "../domain/payments";
import { releaseOrPark, settleCart } from "../services/checkout/finalizer";
import type { Job, JobReport } from "./types";

type Outcome = "completed" | "released" | "pending" | "unchanged" | "parked" | "held";

/** Carts in a row whose settlement met an unavailable processor or database before the run is taken for an outage and ends. */
const OUTAGE_AFTER_UNAVAILABLE_CARTS = 3;

/**
 * Carries payments that nobody is carrying any more to their outcome, through the checkout
 * finalizer (`settleCart`, the only writer of payment outcomes), exactly as an order-result poll
 * or a webhook would:
 * - LOCKED carts whose pending attempt is older than PAYMENT_RECONCILE_AFTER_SECONDS (the client
 *   went away mid-payment, a crash, a processor timeout): captured into an order, or released;
 * - OPEN carts whose payment session holds an intent, with the quote still payable, untouched for
 *   as long (the customer confirmed in the browser but neither the report nor the webhook came):
 *   an authorization for exactly the quote becomes the order the customer paid for;
 * - carts past their idle expiry whose payment session still holds an intent: it is canceled, an
 *   authorization's hold on the card included.
 *
 * The finalizer holds the cart's row lock for each decision, a confirmation carries its attempt's one
 * key, and an intent refuses a second capture or cancellation, so this job may run on several
 * instances at once, next to live requests, without a second charge or order. Carts are visited in
 * id order from a cursor, so a payment that stays pending is not revisited within one run.
 */
export const reconcilePayments: Job = async ({ deps, batchSize, deadline }) => {
  const counts: Record<Outcome | "errors", number> = { completed: 0, released: 0, pending: 0, unchanged: 0, parked: 0, held: 0, errors: 0 };
  const attention: NonNullable<JobReport["attention"]> = [];
  let batches = 0;
  let complete = true;
  let unavailableInARow = 0;
  let passedOver = 0;
  for (const select of [lockedCarts, openCartsWithIntents, expiredCartsWithIntents]) {
    let after = "";
    for (;;) {
      if (Date.now() >= deadline) {
        complete = false;
        break;
      }
      const ids = await select(deps, after, batchSize);
      batches += 1;
      for (const cartId of ids) {
        if (Date.now() >= deadline) {
          complete = false;
          break;
        }
        const result = await reconcileOne(deps, cartId);
        if (result.outcome === "unavailable") {
          counts.errors += 1;
          passedOver += 1;
          // One cart's processor call failing must not hold up the others; several in a row are an
          // outage, and the next run retries.
          unavailableInARow += 1;
          if (unavailableInARow >= OUTAGE_AFTER_UNAVAILABLE_CARTS) return { processed: counts.completed + counts.released, batches, complete: false, details: counts, attention };
          continue;
        }
        unavailableInARow = 0;
        counts[result.outcome] += 1;
        if (result.attention) attention.push(result.attention);
      }
      if (!complete || ids.length < batchSize) break;
      after = ids[ids.length - 1] ?? after;
    }
    if (!complete) break;
  }
  // A cart passed over for an unavailable dependency is left for the next run.
  return { processed: counts.completed + counts.released, batches, complete: complete && passedOver === 0, details: counts, attention };
};

function cutoff(deps: AppDeps): Date {
  return new Date(deps.now().getTime() - deps.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000);
}

async function lockedCarts(deps: AppDeps, after: string, limit: number): Promise<string[]> {
  const rows = await deps.database.db
    .selectDistinct({ id: carts.id })
    .from(carts)
    .innerJoin(paymentAttempts, eq(paymentAttempts.cartId, carts.id))
    .where(and(eq(carts.status, "LOCKED"), eq(paymentAttempts.status, "pending"), lte(paymentAttempts.createdAt, cutoff(deps)), gt(carts.id, after)))
    .orderBy(asc(carts.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** OPEN carts, still payable, whose payment session holds an intent. */
function openCartsWithIntents(deps: AppDeps, after: string, limit: number): Promise<string[]> {
  const now = deps.now();
  return cartsWithSessionIntents(deps, after, limit, [eq(carts.status, "OPEN"), gt(carts.expiresAt, now), gt(carts.quoteExpiresAt, now)]);
}

/**
 * Carts past their idle expiry, within the processors' authorization window, whose payment session
 * still names an intent: the finalizer cancels it (an authorization nobody settled holds the card
 * until then) and the session forgets it, so each such cart is visited until that is done.
 */
function expiredCartsWithIntents(deps: AppDeps, after: string, limit: number): Promise<string[]> {
  const now = deps.now();
  return cartsWithSessionIntents(deps, after, limit, [
    inArray(carts.status, ["OPEN", "EXPIRED"]),
    lte(carts.expiresAt, now),
    gt(carts.expiresAt, new Date(now.getTime() - AUTHORIZATION_WINDOW_MS)),
  ]);
}

/** Carts without an order whose payment session names an intent untouched for PAYMENT_RECONCILE_AFTER_SECONDS, in id order after `after`. */
async function cartsWithSessionIntents(deps: AppDeps, after: string, limit: number, cartConditions: SQL[]): Promise<string[]> {
  const rows = await deps.database.db
    .select({ id: carts.id })
    .from(carts)
    .innerJoin(paymentSessions, eq(paymentSessions.cartId, carts.id))
    .where(
      and(
        ...cartConditions,
        isNotNull(paymentSessions.intentId),
        lte(paymentSessions.updatedAt, cutoff(deps)),
        gt(carts.id, after),
        sql`not exists (select 1 from ${orders} where ${orders.cartId} = ${carts.id})`,
      ),
    )
    .orderBy(asc(carts.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

type Reconciled = { outcome: Outcome | "errors" | "unavailable"; attention?: NonNullable<JobReport["attention"]>[number] };

/**
 * One cart through the finalizer. A processor or database that cannot be reached leaves the cart
 * for the next run; several carts in a row meeting it end this one. Any other failure would recur on every run: the cart is released when the card holds
 * nothing for it, else parked for review (`releaseOrPark`), and the report names it.
 */
async function reconcileOne(deps: AppDeps, cartId: string): Promise<Reconciled> {
  const before = await stateOf(deps, cartId);
  try {
    await settleCart(deps, cartId, { refusedCancellation: "throw" });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "DEPENDENCY_UNAVAILABLE") {
      logger.warn({ cartId, err: appError.cause ?? error }, "payment reconciliation: a dependency is unavailable; ending this run");
      return { outcome: "unavailable" };
    }
    try {
      const unsettled = await releaseOrPark(deps, cartId, error);
      if (unsettled.outcome === "unchanged") return { outcome: "errors" };
      if (unsettled.outcome !== "settled") return { outcome: unsettled.outcome, attention: { cartId, outcome: unsettled.outcome, reason: appError.code } };
    } catch (releaseError) {
      logger.error({ cartId, err: releaseError }, "payment reconciliation: could not release or park the cart");
      return { outcome: toAppError(releaseError).code === "DEPENDENCY_UNAVAILABLE" ? "unavailable" : "errors" };
    }
  }
  const after = await stateOf(deps, cartId);
  if (after.ordered && !before.ordered) return { outcome: "completed" };
  if (after.status === "LOCKED") return { outcome: "pending" };
  if (before.status === "LOCKED" && after.status === "OPEN") return { outcome: "released" };
  return { outcome: "unchanged" };
}

async function stateOf(deps: AppDeps, cartId: string): Promise<{ status: string | undefined; ordered: boolean }> {
  const { db } = deps.database;
  const [cart] = await db.select({ status: carts.status }).from(carts).where(eq(carts.id, cartId));
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.cartId, cartId));
  return { status: cart?.status, ordered: Boolean(order) };
}
