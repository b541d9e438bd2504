import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { carts, locations, orderLines, orders, paymentAttempts, receipts } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import type { ProcessorIntent } from "../../domain/payments";
import { estimatedReadyAt } from "../../domain/schedule";
import { newId } from "../../security/tokens";
import type { CartRow } from "../cart-access";
import { scheduledAcceptance } from "./kitchen";
import { orderCompletedHooks } from "./order-hooks";
import type { PlacedOrder } from "./placed-order";

type AttemptRow = typeof paymentAttempts.$inferSelect;

/**
 * Turns the locked, paid cart into its order: the lines and every total exactly as charged, the
 * fulfilment details, the card summary, its receipt, then the cart becomes COMPLETED and the
 * completion hooks run. Called only by the finalizer, inside its transaction, with the cart row
 * locked; `orders.cart_id` is unique, so even a bug elsewhere could not make a second order.
 */
export async function placeOrder(tx: Tx, deps: AppDeps, cart: CartRow, attempt: AttemptRow, intent: ProcessorIntent): Promise<PlacedOrder> {
  const now = deps.now();
  const { lines: pricedLines, ...totals } = cart.priced;
  // Read whether or not the location is still published: the customer has paid, the order stands.
  const [location] = await tx
    .select({ timeZone: locations.timeZone, openingHours: locations.openingHours, fulfilment: locations.fulfilment })
    .from(locations)
    .where(eq(locations.id, cart.locationId));
  const [order] = await tx
    .insert(orders)
    .values({
      id: newId("ord"),
      cartId: cart.id,
      attemptId: attempt.id,
      locationId: cart.locationId,
      merchantId: cart.merchantId,
      customerId: cart.customerId,
      currency: cart.currency,
      restaurantDisplayName: cart.restaurantDisplayName,
      statementDescriptor: cart.statementDescriptor,
      marketplaceId: cart.marketplaceId,
      fulfilmentMethod: cart.fulfilmentMethod,
      pickupType: cart.pickupType,
      orderDate: cart.orderDate,
      orderTime: cart.orderTime,
      deliveryInfo: cart.deliveryInfo,
      tableServiceInfo: cart.tableServiceInfo,
      roomServiceInfo: cart.roomServiceInfo,
      // A code below its minimum subtotal stays on the cart (it applies again once the cart grows) but
      // took nothing off this order: the order and its receipt name only a code that was redeemed.
      discountCode: totals.discountTotal > 0 ? (cart.discount?.code ?? null) : null,
      quoteFingerprint: cart.quoteFingerprint ?? "",
      totals,
      amountChargedMinor: intent.amountMinor,
      processor: deps.payments.name,
      paymentIntentId: intent.id,
      cardBrand: intent.card?.brand ?? null,
      cardLast4: intent.card?.last4 ?? null,
      placedAt: now,
      acceptedAt: scheduledAcceptance(now, deps.env),
      readyAt: (location && estimatedReadyAt(cart, location, now, cart.deliveryQuote)) ?? null,
    })
    .returning();
  if (!order) throw new Error("insert returned no order");

  const pricedById = new Map(pricedLines.map((line) => [line.lineId, line]));
  if (cart.lines.length > 0) {
    await tx.insert(orderLines).values(
      cart.lines.map((line, position) => {
        const priced = pricedById.get(line.id);
        return {
          orderId: order.id,
          position,
          cartLineId: line.id,
          productId: line.productId,
          categoryId: line.categoryId,
          name: line.name,
          quantity: line.quantity,
          basePriceMinor: line.basePriceMinor,
          unitPriceMinor: priced?.unitPriceMinor ?? 0,
          totalMinor: priced?.totalMinor ?? 0,
          discountMinor: priced?.discountMinor ?? 0,
          selections: line.selections,
          specialInstructions: line.specialInstructions,
        };
      }),
    );
  }
  await tx.insert(receipts).values({ id: newId("rcpt"), orderId: order.id, tokenHash: null, createdAt: now });
  // A failure recorded on the way (an order that could not be stored at first) is no longer true.
  await tx.update(paymentAttempts).set({ status: "succeeded", resolvedAt: now, failureCode: null, failureMessage: null }).where(eq(paymentAttempts.id, attempt.id));
  await tx
    .update(carts)
    .set({ status: "COMPLETED", revision: cart.revision + 1, updatedAt: now, lockedAt: cart.lockedAt ?? now })
    .where(eq(carts.id, cart.id));
  for (const hook of orderCompletedHooks) await hook(tx, order, deps);
  return order;
}
