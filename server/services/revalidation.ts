import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { categories, menus, products } from "../../db/schema";
import type { CartLine } from "../domain/cart-types";
import { deliveryQuoteState } from "../domain/delivery";
import { projectLines, revalidate, type CatalogFacts, type CatalogRevalidation, type DeliveryFact, type QuoteFact, type RevalidationCart } from "../domain/revalidation";
import type { CartRow, LocationRevisions } from "./cart-access";
import { repriceCart } from "./cart-pricing";
import { effectiveStatus } from "./cart-view";
import type { CartChange, MutationScope } from "./cart-change";
import type { LocationRow } from "./locations";

/**
 * Keeps carts honest about catalog publications. Detection is cheap: a cart records the catalog
 * and policy revisions it was priced against, and only when they differ from the location's (or a
 * revalidation is still pending, or the courier quote went stale) are the cart's products loaded
 * and diffed. The diff itself is the pure `revalidate` in server/domain/revalidation.ts.
 */
export function catalogMovedOn(cart: Pick<CartRow, "catalogRevision" | "policyRevision">, location: Pick<LocationRow, "catalogRevision" | "policyRevision">): boolean {
  return cart.catalogRevision !== location.catalogRevision || cart.policyRevision !== location.policyRevision;
}

/**
 * The current facts for the products a cart holds, in one query. The location row must have been
 * read first: products are then at least as new as the revision recorded from it, so a
 * publication racing with this read is caught by the next comparison, never missed.
 */
export async function loadCatalogFacts(db: Executor, location: LocationRow, productIds: readonly string[]): Promise<CatalogFacts> {
  const ids = [...new Set(productIds)];
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ product: products, menuAvailability: menus.availability })
          .from(products)
          .innerJoin(categories, eq(categories.id, products.categoryId))
          .innerJoin(menus, eq(menus.id, categories.menuId))
          .where(and(eq(products.locationId, location.id), inArray(products.id, ids)));
  return {
    catalogRevision: location.catalogRevision,
    policyRevision: location.policyRevision,
    timeZone: location.timeZone,
    openingHours: location.openingHours,
    fulfilment: location.fulfilment,
    fees: location.fees,
    products: new Map(
      rows.map(({ product, menuAvailability }) => [
        product.id,
        {
          id: product.id,
          name: product.name,
          description: product.description,
          imageUrl: product.imageUrl,
          categoryId: product.categoryId,
          priceMinor: product.priceMinor,
          available: product.available,
          maxQuantity: product.maxQuantity,
          modifierGroups: product.modifierGroups,
          menuAvailability,
        },
      ]),
    ),
  };
}

/** The cart with the current catalog applied to its lines and re-priced, as a check would leave it. */
export function projectCart(cart: CartRow, facts: CatalogFacts, location: LocationRow, now: Date): CartRow {
  const lines = projectLines(cart.lines, facts, cart.currency, null).lines;
  const projected = { ...cart, lines };
  return { ...projected, ...repriceCart(projected, location, now) };
}

/** The courier quote's state when the courier is not asked (reads and ordinary mutations). */
export function deliveryFactOf(cart: CartRow, now: Date): DeliveryFact {
  const state = deliveryQuoteState(cart, now);
  if ((state === "stale" || state === "expired") && cart.deliveryQuote) return { state, quote: cart.deliveryQuote };
  return { state: state === "current" ? "current" : "none" };
}

export function revalidationCartOf(cart: CartRow): RevalidationCart {
  return {
    revision: cart.revision,
    catalogRevision: cart.catalogRevision,
    policyRevision: cart.policyRevision,
    currency: cart.currency,
    fulfilmentMethod: cart.fulfilmentMethod,
    pickupType: cart.pickupType,
    orderDate: cart.orderDate,
    orderTime: cart.orderTime,
    lines: cart.lines,
    fees: cart.priced.fees,
    hasDiscount: cart.discount !== null,
    catalogRevalidation: cart.catalogRevalidation,
  };
}

/** What a check stores on the cart: the updated lines, the revisions it is now priced against, and the result. */
export function revalidationPatch(
  cart: CartRow,
  facts: CatalogFacts,
  options: { now: Date; nextCartRevision: number; quote: QuoteFact; delivery: DeliveryFact },
): { lines: CartLine[]; catalogRevision: number; policyRevision: number; catalogRevalidation: CatalogRevalidation } {
  const result = revalidate({ cart: revalidationCartOf(cart), catalog: facts, ...options });
  return { lines: result.lines, catalogRevision: facts.catalogRevision, policyRevision: facts.policyRevision, catalogRevalidation: result.revalidation };
}

const needsRenewal = (fact: DeliveryFact) => fact.state === "stale" || fact.state === "expired";

/**
 * Called by mutateCart after every change: when the catalog moved on, a revalidation is pending,
 * or the courier quote went stale (the address, order time or subtotal changed), the cart is
 * revalidated in the same transaction and the result travels with the mutation's response. The
 * courier is never called here (this runs inside the transaction): a stale quote is flagged
 * QUOTE_EXPIRED and renewed by validate-and-update. Status transitions (expiring, locking for
 * payment) are left alone: checkout refuses a stale cart before it locks it (checkoutBlockers).
 */
export async function reconcileWithCatalog(scope: MutationScope, patch: CartChange): Promise<CartChange> {
  if (patch.status !== undefined || patch.catalogRevalidation !== undefined) return {};
  const { tx, cart, location, now } = scope;
  const next: CartRow = { ...cart, ...patch };
  if (!catalogMovedOn(next, location) && !next.catalogRevalidation?.required) {
    if (next.fulfilmentMethod !== "delivery" || !next.deliveryQuote) return {};
    const repriced = { ...next, ...repriceCart(next, location, now) };
    if (!needsRenewal(deliveryFactOf(repriced, now))) return {};
  }
  const facts = await loadCatalogFacts(tx, location, next.lines.map((line) => line.productId));
  const delivery = deliveryFactOf(projectCart(next, facts, location, now), now);
  return revalidationPatch(next, facts, { now, nextCartRevision: cart.revision + 1, quote: { state: "current" }, delivery });
}

/**
 * For reads: what a check would report now, computed but not stored (a read never writes). The
 * cart's own fields, totals and revision are unchanged; only catalogRevalidation shows the news.
 *
 * `sameBefore` (ms since the epoch): a read of this very row, against the same location revisions,
 * at any time before it reads the cart as it is, and its view then depends on the time not at all
 * (server/services/rendered-carts.ts keeps renderings on that). -Infinity when this read found news,
 * or when the cart is past its idle expiry but not yet rewritten (its view changed at the expiry).
 */
export async function withDetectedChanges(
  db: Executor,
  cart: CartRow,
  revisions: LocationRevisions,
  now: Date,
  readLocation: () => Promise<LocationRow>,
): Promise<{ cart: CartRow; sameBefore: number }> {
  if (cart.status !== "OPEN") return { cart, sameBefore: Number.POSITIVE_INFINITY };
  // Past its idle expiry the cart reads as EXPIRED, and nothing of it is checked (nor its quotes looked at).
  if (effectiveStatus(cart, now) !== "OPEN") return { cart, sameBefore: Number.NEGATIVE_INFINITY };
  const quiet = quietUntil(cart, revisions, now);
  if (now.getTime() < quiet) return { cart, sameBefore: quiet };
  // Only now the whole location, read before the products (loadCatalogFacts): most reads find nothing to check.
  const location = await readLocation();
  const facts = await loadCatalogFacts(db, location, cart.lines.map((line) => line.productId));
  const delivery = deliveryFactOf(projectCart(cart, facts, location, now), now);
  const quoteExpired = cart.quoteExpiresAt !== null && cart.quoteExpiresAt.getTime() <= now.getTime();
  // A courier quote that needs renewal already says the cart's quote does.
  const quote: QuoteFact = quoteExpired && !needsRenewal(delivery) && cart.quoteExpiresAt ? { state: "expired", expiredAt: cart.quoteExpiresAt.toISOString() } : { state: "current" };
  const { catalogRevalidation } = revalidationPatch(cart, facts, { now, nextCartRevision: cart.revision, quote, delivery });
  return { cart: { ...cart, catalogRevalidation }, sameBefore: Number.NEGATIVE_INFINITY };
}

/**
 * Until when a read of an OPEN cart has nothing to check: the first of its idle expiry, its quote's
 * expiry and its courier quote's. -Infinity when it has something to check whatever the time: the
 * catalog or policy moved on, or the courier quote no longer fits the cart.
 */
function quietUntil(cart: CartRow, revisions: LocationRevisions, now: Date): number {
  if (catalogMovedOn(cart, revisions)) return Number.NEGATIVE_INFINITY;
  const delivery = deliveryQuoteState(cart, now);
  if (delivery === "stale" || delivery === "expired") return Number.NEGATIVE_INFINITY;
  const courierQuoteExpiry = delivery === "current" && cart.deliveryQuote ? Date.parse(cart.deliveryQuote.expiresAt) : Number.POSITIVE_INFINITY;
  return Math.min(cart.expiresAt.getTime(), cart.quoteExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY, courierQuoteExpiry);
}
