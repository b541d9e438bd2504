import { and, desc, eq, sum } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { customers, loyaltyLedgerEntries, merchants } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { pointsForOrder } from "../../domain/loyalty";
import type { LoyaltyLedgerView } from "../../schemas/customer";
import { newId } from "../../security/tokens";
import type { RequestContext } from "../../app/request-context";
import type { PlacedOrder } from "../checkout/placed-order";
import { findLocation } from "../locations";
import { decodeTimeCursor, encodeTimeCursor, olderThan } from "./cursor";
import { authenticateCustomer, requireSameMerchant } from "./principal";

/**
 * Order-completion hook: a signed-in customer's paid order earns points by the merchant's rule, in
 * the transaction that creates the order. Entries are only ever inserted; `order_id` is unique, so
 * the same order can never earn twice.
 */
export async function awardLoyaltyPoints(tx: Tx, order: PlacedOrder, deps: AppDeps): Promise<void> {
  if (!order.customerId) return;
  // The merchant's rule, for a customer of that merchant (a cart naming anyone else earns nothing rather than failing the order).
  const [rule] = await tx
    .select({ pointsPerUnit: merchants.loyaltyPointsPerUnit })
    .from(customers)
    .innerJoin(merchants, eq(merchants.id, customers.merchantId))
    .where(and(eq(customers.id, order.customerId), eq(merchants.id, order.merchantId)));
  const points = pointsForOrder(order.totals.subTotal, order.currency, rule?.pointsPerUnit ?? 0);
  if (points <= 0) return;
  await tx
    .insert(loyaltyLedgerEntries)
    .values({
      id: newId("lpt"),
      customerId: order.customerId,
      merchantId: order.merchantId,
      locationId: order.locationId,
      orderId: order.id,
      points,
      reason: "order",
      createdAt: deps.now(),
    })
    .onConflictDoNothing({ target: loyaltyLedgerEntries.orderId });
}

/**
 * GET /customer/locations/{locationId}/loyalty/ledger. The programme is the merchant's: the balance
 * and the entries cover all its locations (each entry names where it was earned); the location says
 * which merchant, and must be the session's (else 403).
 */
export async function readLoyaltyLedger(ctx: RequestContext, input: { locationId: string; limit: number; cursor?: string | undefined }): Promise<LoyaltyLedgerView> {
  const principal = await authenticateCustomer(ctx);
  const db = ctx.deps.database.db;
  const location = await findLocation(db, input.locationId, { allowSlug: false });
  requireSameMerchant(principal, location.merchantId);
  const after = decodeTimeCursor(input.cursor);
  const mine = and(eq(loyaltyLedgerEntries.customerId, principal.customerId), eq(loyaltyLedgerEntries.merchantId, location.merchantId));
  const [total] = await db.select({ balance: sum(loyaltyLedgerEntries.points) }).from(loyaltyLedgerEntries).where(mine);
  const rows = await db
    .select()
    .from(loyaltyLedgerEntries)
    .where(and(mine, olderThan(loyaltyLedgerEntries.createdAt, loyaltyLedgerEntries.id, after)))
    .orderBy(desc(loyaltyLedgerEntries.createdAt), desc(loyaltyLedgerEntries.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return {
    merchantId: location.merchantId,
    pointsPerUnit: location.merchant.loyaltyPointsPerUnit,
    balance: Number(total?.balance ?? 0),
    entries: page.map((entry) => ({
      id: entry.id,
      reason: entry.reason,
      points: entry.points,
      orderId: entry.orderId,
      locationId: entry.locationId,
      createdAt: entry.createdAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
