import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { carts } from "../../db/schema";
import { cartEtag } from "../domain/etag";
import { AppError, notFound } from "../errors";
import { hashToken, sameHash } from "../security/tokens";
import type { RequestContext } from "../app/request-context";
import { authenticateCustomer, requireSameMerchant } from "./customers/principal";

export type CartRow = typeof carts.$inferSelect;

/**
 * Loads a cart and checks the caller's credential for it: the cart capability (X-Cart-Token) when
 * sent, else the customer bearer token. No credential at all is 401.
 *
 * Capability: an unknown cart (or one at another location) is 404; a token that belongs to a
 * different cart is 403; a token that belongs to no cart is 401.
 *
 * Customer token: an invalid, expired or signed-out session is 401 (checked first); an unknown cart
 * is 404; a cart of another merchant, or of another customer (including guest carts), is 403.
 */
export async function loadAuthorizedCart(db: Executor, ctx: RequestContext, locationId: string, cartId: string): Promise<CartRow> {
  const { cartToken: token, bearer } = ctx.credential;
  if (!token && !bearer) throw new AppError("UNAUTHORIZED", "Send the cart's X-Cart-Token (or a customer bearer token)");
  if (!token) return loadCustomerCart(db, ctx, locationId, cartId);
  const [cart] = await db.select().from(carts).where(and(eq(carts.id, cartId), eq(carts.locationId, locationId)));
  if (!cart) throw notFound("Cart");
  const presented = hashToken(token);
  if (cart.tokenHash && sameHash(presented, cart.tokenHash)) return cart;
  const [other] = await db.select({ id: carts.id }).from(carts).where(eq(carts.tokenHash, presented)).limit(1);
  if (other) throw new AppError("FORBIDDEN", "This cart token belongs to a different cart");
  throw new AppError("UNAUTHORIZED", "The cart token is not valid");
}

async function loadCustomerCart(db: Executor, ctx: RequestContext, locationId: string, cartId: string): Promise<CartRow> {
  const principal = await authenticateCustomer(ctx, db);
  const [cart] = await db.select().from(carts).where(and(eq(carts.id, cartId), eq(carts.locationId, locationId)));
  if (!cart) throw notFound("Cart");
  requireSameMerchant(principal, cart.merchantId);
  if (cart.customerId !== principal.customerId) throw new AppError("FORBIDDEN", "This cart belongs to someone else");
  return cart;
}

export function conflict(currentRevision: number): AppError {
  return new AppError("CART_CONFLICT", "The cart changed since you read it; reload it and retry", {
    details: { currentRevision, currentETag: cartEtag(currentRevision) },
  });
}

export function cartResponseHeaders(revision: number): Record<string, string> {
  return { etag: cartEtag(revision), "cache-control": "private, no-store" };
}
