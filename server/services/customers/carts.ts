import type { FulfilmentMethod } from "../../domain/catalog-types";
import type { CartView } from "../../schemas/cart";
import type { RequestContext } from "../../app/request-context";
import { cartResponseHeaders } from "../cart-access";
import { insertCart, requireFulfilmentEnabled } from "../carts";
import { toCartView } from "../cart-view";
import { runIdempotent } from "../idempotency";
import { findLocation } from "../locations";
import { authenticateCustomer, requireSameMerchant } from "./principal";

/**
 * POST /locations/{locationId}/carts: a cart owned by the signed-in customer. It has no capability
 * (the customer's token is its credential) and follows the customer to any device they sign in on.
 * The location must belong to the session's merchant (else 403).
 */
export function createCustomerCart(
  ctx: RequestContext,
  input: { locationId: string; fulfillmentMethod: FulfilmentMethod; marketplaceId?: string | undefined },
): Promise<{ cart: CartView }> {
  return runIdempotent(ctx, { operation: "carts.create", input }, async (tx) => {
    const principal = await authenticateCustomer(ctx, tx);
    const location = await findLocation(tx, input.locationId, { allowSlug: false });
    requireSameMerchant(principal, location.merchantId);
    requireFulfilmentEnabled(location, input.fulfillmentMethod, "fulfillmentMethod");
    const cart = await insertCart(tx, ctx, location, input, { tokenHash: null, customerId: principal.customerId });
    return { body: { cart: toCartView(cart, ctx.deps.now()) }, status: 201, headers: cartResponseHeaders(cart.revision) };
  });
}
