import { eq } from "drizzle-orm";
import { orders, ratings } from "../../../db/schema";
import { AppError } from "../../errors";
import type { RatingView } from "../../schemas/checkout";
import type { TransactionalWrite } from "../operation-context";
import { loadAuthorizedCart } from "../cart-access";
import type { CartIds } from "../carts";
import { isAccepted } from "./kitchen";

/**
 * POST .../rating: one rating per completed order. A second rating is refused (409
 * RESOURCE_CONFLICT) rather than replacing the first: a rating is a record of what the customer
 * said once, and a retry of the same request replays through its Idempotency-Key. No If-Match: the
 * cart is COMPLETED and can no longer change, so its revision guards nothing here; the primary key
 * on the order guards the rating.
 */
export async function rateOrder(ctx: TransactionalWrite, ids: CartIds, input: { rating: number; comment?: string | undefined }): Promise<RatingView> {
  const { tx } = ctx;
  const cart = await loadAuthorizedCart(tx, ctx, ids.locationId, ids.cartId);
  const now = ctx.deps.now();
  const [order] = await tx.select().from(orders).where(eq(orders.cartId, cart.id));
  if (!order || !isAccepted(order, now)) {
    throw new AppError("RESOURCE_CONFLICT", "Only a completed order can be rated; poll the order result until it is completed", {
      details: { reason: "ORDER_NOT_COMPLETED" },
    });
  }
  const comment = input.comment?.trim() ? input.comment.trim() : null;
  const [rating] = await tx.insert(ratings).values({ orderId: order.id, rating: input.rating, comment, createdAt: now }).onConflictDoNothing().returning();
  if (!rating) {
    throw new AppError("RESOURCE_CONFLICT", "This order has already been rated", { details: { reason: "ALREADY_RATED", orderId: order.id } });
  }
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return { orderId: order.id, rating: rating.rating, comment: rating.comment, createdAt: rating.createdAt.toISOString() };
}
