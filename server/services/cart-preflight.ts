import { AppError } from "../errors";
import { conflict, loadAuthorizedCartWithLocation, publishedLocation, type CartRow } from "./cart-access";
import { effectiveStatus } from "./cart-view";
import type { CartIds } from "./carts";
import type { LocationWithMerchant } from "./locations";
import type { CommittingCartMutation } from "./operation-context";

/**
 * For cart mutations that must call an outside service (the courier) before their transaction:
 * the same checks as mutateCart, in the same order (credential, state, revision), run without a
 * transaction so no connection is held across the slow call. Its kind has already replayed a retry
 * of a completed request, which so never reaches the courier. The mutation itself still goes
 * through mutateCart in `ctx.commit`, which checks everything again inside its transaction.
 */
export async function preflightCartMutation(ctx: CommittingCartMutation, ids: CartIds): Promise<{ cart: CartRow; location: LocationWithMerchant }> {
  const db = ctx.deps.database.db;
  const loaded = await loadAuthorizedCartWithLocation(db, ctx, ids.locationId, ids.cartId);
  const { cart } = loaded;
  const status = effectiveStatus(cart, ctx.deps.now());
  if (status !== "OPEN") {
    throw new AppError("CART_IMMUTABLE", `The cart is ${status} and can no longer be changed`, { details: { status } });
  }
  if (cart.revision !== ctx.expectedRevision) throw conflict(cart.revision);
  return { cart, location: publishedLocation(loaded.location) };
}
