import { AppError } from "../errors";
import type { CartView } from "../schemas/cart";
import type { RequestContext } from "../app/request-context";
import { conflict, loadAuthorizedCart, requireIfMatch, type CartRow } from "./cart-access";
import { effectiveStatus } from "./cart-view";
import type { CartIds } from "./carts";
import { replayStoredOutcome } from "./idempotency";
import { findLocation, type LocationWithMerchant } from "./locations";

export type Preflight = { replay: CartView } | { cart: CartRow; location: LocationWithMerchant };

/**
 * For cart mutations that must call an outside service (the courier) before their transaction:
 * the same checks as mutateCart, in the same order (If-Match present, idempotent replay, credential,
 * state, revision), run without a transaction so no connection is held across the slow call. A
 * retry of a completed request replays here and never reaches the courier. The mutation itself
 * still goes through mutateCart, which checks everything again inside its transaction.
 */
export async function preflightCartMutation(ctx: RequestContext, ids: CartIds, operation: string, input: unknown): Promise<Preflight> {
  const expectedRevision = requireIfMatch(ctx);
  // Same request shape as mutateCart records, so the replay and reuse checks agree with it.
  const stored = await replayStoredOutcome<CartView>(ctx, { operation, input: { ...ids, input } });
  if (stored) return { replay: stored.body };
  const db = ctx.deps.database.db;
  const cart = await loadAuthorizedCart(db, ctx, ids.locationId, ids.cartId);
  const status = effectiveStatus(cart, ctx.deps.now());
  if (status !== "OPEN") {
    throw new AppError("CART_IMMUTABLE", `The cart is ${status} and can no longer be changed`, { details: { status } });
  }
  if (cart.revision !== expectedRevision) throw conflict(cart.revision);
  const location = await findLocation(db, cart.locationId, { allowSlug: false });
  return { cart, location };
}
