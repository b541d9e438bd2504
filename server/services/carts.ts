import type { CartChange, MutationScope } from "./cart-change";
import { eq, getTableColumns } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { carts } from "../../db/schema";
import { fragment, rawFragment, type Fragment } from "../../db/fragment";
import { insertClause, setClause } from "../../db/write-clauses";
import type { CartLine } from "../domain/cart-types";
import { type FulfilmentMethod } from "../domain/catalog-types";
import { AppError, validationError } from "../errors";
import type { CartView } from "../schemas/cart";
import { newCapability, hashToken, newId } from "../security/tokens";
import type { RequestContext } from "../app/request-context";
import { cartResponseHeaders, cartRowVersion, conflict, loadAuthorizedCartWithLocation, loadAuthorizedCartForRead, publishedLocation, type CartRow } from "./cart-access";
import { repriceCart } from "./cart-pricing";
import { effectiveStatus, toCartView } from "./cart-view";
import type { CartMutationContext, TransactionalWrite } from "./operation-context";
import { reconcileWithCatalog, withDetectedChanges } from "./revalidation";
import { lastWrite } from "./idempotency";
import { lineWrites, storedPriced } from "./cart-lines";
import { findLocation, locationRow, type LocationWithMerchant } from "./locations";

export type CartIds = { locationId: string; cartId: string };

export function idleExpiry(ctx: Pick<RequestContext, "deps">, now: Date): Date {
  return new Date(now.getTime() + ctx.deps.env.CART_IDLE_TTL_MINUTES * 60_000);
}

/** POST /locations/{locationId}/ordering-sessions: a new guest cart and its one-time capability (its kind stores the answer, and replays it without the token to an anonymous caller). */
export async function createOrderingSession(
  ctx: TransactionalWrite,
  input: { locationId: string; fulfillmentMethod: FulfilmentMethod; marketplaceId?: string | undefined },
): Promise<{ cart: CartView; cartAccessToken?: string }> {
  const { tx } = ctx;
  const location = await findLocation(tx, input.locationId, { allowSlug: false });
  requireFulfilmentEnabled(location, input.fulfillmentMethod, "fulfillmentMethod");
  const token = newCapability("ct");
  const cart = await insertCart(tx, ctx, location, input, { tokenHash: hashToken(token), customerId: null });
  Object.assign(ctx.response.headers, cartResponseHeaders(cart.revision));
  return { cart: toCartView(cart, ctx.deps.now()), cartAccessToken: token };
}

/** What an anonymous caller's stored ordering session keeps: the cart without its token. */
export const orderingSessionWithoutToken = ({ cart }: { cart: CartView; cartAccessToken?: string }) => ({ cart });

/** Every column of a cart row, null: what an insert leaves unset (no cart column has another default that inserts rely on). */
const unsetCartColumns = Object.fromEntries(Object.keys(getTableColumns(carts)).map((field) => [field, null]));

/**
 * A new, empty, priced cart at the location, owned by a capability (guest) or by a customer. The
 * caller has checked the location and the fulfilment method.
 */
export async function insertCart(
  tx: Tx,
  ctx: RequestContext,
  location: LocationWithMerchant,
  input: { fulfillmentMethod: FulfilmentMethod; marketplaceId?: string | undefined },
  owner: { tokenHash: string; customerId: null } | { tokenHash: null; customerId: string },
): Promise<CartRow> {
  const now = ctx.deps.now();
  const draft = {
    lines: [] as CartLine[],
    discount: null,
    gratuity: null,
    courierTipMinor: null,
    fulfilmentMethod: input.fulfillmentMethod,
    currency: location.currency,
    deliveryQuote: null,
    pickupType: "ASAP" as const,
    orderDate: "",
    orderTime: "",
  };
  const values = {
    id: newId("cart"),
    locationId: location.id,
    merchantId: location.merchantId,
    status: "OPEN",
    revision: 0,
    tokenHash: owner.tokenHash,
    customerId: owner.customerId,
    restaurantDisplayName: location.displayName,
    statementDescriptor: location.merchant.statementDescriptor,
    fulfillmentIdentifier: input.fulfillmentMethod,
    marketplaceId: input.marketplaceId ?? null,
    catalogRevision: location.catalogRevision,
    policyRevision: location.policyRevision,
    expiresAt: idleExpiry(ctx, now),
    createdAt: now,
    updatedAt: now,
    ...draft,
    ...repriceCart(draft, location, now),
  } satisfies Omit<CartRow, "deliveryInfo" | "tableServiceInfo" | "roomServiceInfo" | "metadata" | "lockedAt" | "catalogRevalidation">;
  // The use case's last statement (./idempotency.ts, lastWrite): it goes with the stored answer. The
  // row is what was written, every column left out null; test/integration/mutation-answers.test.ts
  // shows the answer is the cart a GET reads after it. A new cart has no lines, so no line rows.
  const inserted = { ...unsetCartColumns, ...values } as CartRow;
  await lastWrite(
    tx,
    fragment`insert into carts ${insertClause(carts, { ...withoutLines(values), priced: storedPriced(values.priced) })} returning ${writtenRowVersion}`,
    () => Promise.reject(new Error("the cart insert wrote no row")),
    keepLines(ctx, inserted),
  );
  return inserted;
}

/** A cart's own columns: its lines are rows of their own (./cart-lines.ts). */
function withoutLines<T extends { lines: unknown }>(cart: T): Omit<T, "lines"> {
  const { lines: _lines, ...columns } = cart;
  return columns;
}

/** The written row's version, as a cart read names it (cart-access.ts cartRowVersion). */
const writtenRowVersion = rawFragment(`${cartRowVersion("carts")} as row_version`);

/** Once the write has committed: its lines are kept for this process's next change of the cart (kept-cart-lines.ts). */
const keepLines = (ctx: Pick<RequestContext, "deps">, row: CartRow) => (version: string) => {
  ctx.deps.keptCartLines.keep(row.id, { version, lines: row.lines, priced: row.priced });
};

export async function getCart(ctx: RequestContext, ids: CartIds): Promise<CartView> {
  const db = ctx.deps.database.db;
  // With its location's revisions in the same statement: one round trip, unless withDetectedChanges has something to check.
  let read = await loadAuthorizedCartForRead(db, ctx, ids.locationId, ids.cartId, "unless rendered");
  const now = ctx.deps.now();
  const kept = ctx.deps.renderedCarts.get({ cartId: ids.cartId, version: read.version, revisions: read.revisions }, now);
  if (kept) {
    Object.assign(ctx.response.headers, cartResponseHeaders(read.revision));
    return kept;
  }
  // The lines were left out for a rendering that ran out of time between the read and now: the row is read
  // again, whole, at whatever version it is now.
  if (!read.decode) read = await loadAuthorizedCartForRead(db, ctx, ids.locationId, ids.cartId, "always");
  if (!read.decode) throw new Error("a cart read left out lines it was asked for");
  Object.assign(ctx.response.headers, cartResponseHeaders(read.revision));
  const key = { cartId: ids.cartId, version: read.version, revisions: read.revisions };
  const cart = read.decode();
  const detected = await withDetectedChanges(db, cart, read.revisions, now, () => locationRow(db, cart.locationId));
  const view = toCartView(detected.cart, now);
  ctx.deps.renderedCarts.keep(key, view, detected.sameBefore, now);
  return view;
}


/**
 * The one path by which a cart changes, inside the transaction its kind opened under the
 * Idempotency-Key (a retry has already been replayed): credential, state and revision checks, the
 * change itself, re-pricing, and a compare-and-set UPDATE on the revision. N concurrent writers
 * holding the same If-Match get one success and N-1 conflicts. `amountField` is the request field a
 * total past 2^53 - 1 minor units is blamed on (a 400). A location no longer published refuses every
 * change with 404, unless `evenIfLocationUnpublished` (expiring the cart: see expireCart).
 */
export async function mutateCart(
  ctx: CartMutationContext,
  ids: CartIds,
  change: (scope: MutationScope) => Promise<CartChange> | CartChange,
  options: { amountField?: string; evenIfLocationUnpublished?: boolean } = {},
): Promise<CartView> {
  const { tx, expectedRevision } = ctx;
  const loaded = await loadAuthorizedCartWithLocation(tx, ctx, ids.locationId, ids.cartId);
  const { cart } = loaded;
  const now = ctx.deps.now();
  const status = effectiveStatus(cart, now);
  if (status !== "OPEN") {
    throw new AppError("CART_IMMUTABLE", `The cart is ${status} and can no longer be changed`, { details: { status } });
  }
  if (cart.revision !== expectedRevision) throw conflict(cart.revision);
  const location = options.evenIfLocationUnpublished ? loaded.location : publishedLocation(loaded.location);
  const changed = await change({ tx, cart, location, now });
  const patch = { ...changed, ...(await reconcileWithCatalog({ tx, cart, location, now }, changed)) };
  const next = { ...cart, ...patch };
  const written = {
    ...patch,
    ...repriceCart(next, location, now, options.amountField),
    revision: cart.revision + 1,
    updatedAt: now,
    expiresAt: patch.status === "EXPIRED" ? now : idleExpiry(ctx, now),
  };
  const updated: CartRow = { ...cart, ...written };
  // The compare-and-set, with the line rows it changes, is this use case's last statement: it goes to
  // Postgres with the stored answer, in one statement (./idempotency.ts, lastWrite). The row as written
  // is known here, so it is not read back (at 100 lines, that would parse 100 lines again);
  // test/integration/mutation-answers.test.ts shows the answer is the cart a GET reads after it.
  const update = cartUpdate(cart, updated, expectedRevision);
  await lastWrite(
    tx,
    update.statement,
    async (executor) => {
      const [latest] = await executor.select({ revision: carts.revision }).from(carts).where(eq(carts.id, cart.id));
      throw conflict(latest?.revision ?? cart.revision);
    },
    keepLines(ctx, updated),
    update.alongside,
  );
  Object.assign(ctx.response.headers, cartResponseHeaders(updated.revision));
  return toCartView(updated, now);
}

/**
 * The compare-and-set UPDATE that takes an OPEN cart from `cart` (at `expectedRevision`) to `next`,
 * returning the written row's version; `alongside`, the writes of the line rows that changed
 * (./cart-lines.ts), which go in the same statement and only if the UPDATE wrote.
 */
export function cartUpdate(cart: CartRow, next: CartRow, expectedRevision: number): { statement: Fragment; alongside: Fragment[] } {
  const row: Partial<typeof carts.$inferInsert> = {};
  for (const [field, value] of Object.entries(next)) {
    if (field === "lines" || field === "id" || (cart as Record<string, unknown>)[field] === value) continue;
    (row as Record<string, unknown>)[field] = field === "priced" ? storedPriced(value as CartRow["priced"]) : value;
  }
  return {
    statement: fragment`update carts set ${setClause(carts, row)} where id = ${cart.id} and revision = ${expectedRevision} and status = 'OPEN' returning ${writtenRowVersion}`,
    alongside: lineWrites(cart.id, cart, next),
  };
}

export function requireFulfilmentEnabled(location: LocationWithMerchant, method: FulfilmentMethod, field: string): void {
  if (!location.fulfilment[method]?.enabled) {
    const offered = Object.entries(location.fulfilment)
      .filter(([, option]) => option?.enabled)
      .map(([name]) => name);
    throw validationError(`${location.displayName} does not offer ${method}; it offers ${offered.join(", ")}`, [
      { path: field, message: `not offered here (offered: ${offered.join(", ")})` },
    ]);
  }
}
