import type { FulfilmentMethod } from "../../domain/catalog-types";
import type { CartView } from "../../schemas/cart";
import { cartResponseHeaders } from "../cart-access";
import { insertCart, requireFulfilmentEnabled } from "../carts";
import { toCartView } from "../cart-view";
import type { TransactionalWrite } from "../operation-context";
import { findLocation } from "../locations";
import { authenticateCustomer, requireSameMerchant } from "./principal";

/**
 * POST /locations/{locationId}/carts: a cart owned by the signed-in customer. It has no capability
 * (the customer's token is its credential) and follows the customer to any device they sign in on.
 * The location must belong to the session's merchant (else 403).
 */
export async function createCustomerCart(
  ctx: TransactionalWrite,
  input: { locationId: string; fulfillmentMethod: FulfilmentMethod; marketplaceId?: string | undefined },
): Promise<{ cart: CartView }> {
  const { tx } = ctx;
  const principal = await authenticateCustomer(ctx, tx);
  const location = await findLocation(tx, input.locationId, { allowSlug: false });
  requireSameMerchant(principal, location.merchantId);
  requireFulfilmentEnabled(location, input.fulfillmentMethod, "fulfillmentMethod");
  const cart = await insertCart(tx, ctx, location, input, { tokenHash: null, customerId: principal.customerId });
  Object.assign(ctx.response.headers, cartResponseHeaders(cart.revision));
  return { cart: toCartView(cart, ctx.deps.now()) };
}
