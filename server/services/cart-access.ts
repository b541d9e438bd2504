import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { projection } from "../../db/projection";
import { fragment, rawFragment } from "../../db/fragment";
import { fragmentRows } from "../../db/rows";
import { carts, locations, merchants, type CartWithLines } from "../../db/schema";
import { cartEtag } from "../domain/etag";
import { AppError, notFound } from "../errors";
import { hashToken, sameHash } from "../security/tokens";
import type { RequestContext } from "../app/request-context";
import { authenticateCustomer, requireSameMerchant } from "./customers/principal";
import type { LocationRow, LocationWithMerchant } from "./locations";
import { readAhead } from "./read-ahead";
import { linesOfCart, withLines } from "./cart-lines";

export type CartRow = CartWithLines;

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
  return (await loadAuthorized(db, ctx, locationId, cartId, cartOnly)).cart;
}

/**
 * The same checks, with the cart's location and merchant read in the same statement: for mutations,
 * which need both. The location is returned as it is; `publishedLocation` refuses it later, after
 * the cart's own checks, so errors come in the same order as reading them one after the other.
 */
export function loadAuthorizedCartWithLocation(db: Executor, ctx: RequestContext, locationId: string, cartId: string): Promise<{ cart: CartRow; location: LocationWithMerchant }> {
  return loadAuthorized(db, ctx, locationId, cartId, withLocation);
}

/**
 * The same checks, for a read of the cart (getCart), with the location's catalog and policy revisions
 * read in the same statement: a read needs the whole location only when they moved on, or when the
 * cart's quote expired or its courier quote needs renewal (services/revalidation.ts withDetectedChanges).
 */
export function loadAuthorizedCartForRead(db: Executor, ctx: RequestContext, locationId: string, cartId: string, lines: "unless rendered" | "always"): Promise<CartForRead> {
  return loadAuthorized(db, ctx, locationId, cartId, lines === "always" ? readForView : readForViewUnlessRendered);
}

/** 404 for a location that is no longer published (as findLocation answers). */
export function publishedLocation(location: LocationWithMerchant): LocationWithMerchant {
  if (!location.published) throw notFound("Location");
  return location;
}

type CartRead<T extends { cart: CartOwner }> = (db: Executor, ctx: Pick<RequestContext, "deps">, locationId: string, cartId: string) => Promise<T | undefined>;

// Both reads are written once from the schema (db/projection.ts): they run on every cart request.
const cartColumns = projection(carts, "c");
const cartOnlyQuery = rawFragment(`select ${cartColumns.text}, ${linesOfCart("c")} as "c_lines" from carts c where c.id = `);

const cartOnly: CartRead<{ cart: CartRow }> = async (db, _ctx, locationId, cartId) => {
  const [row] = await fragmentRows<Record<string, unknown>>(db, fragment`${cartOnlyQuery}${cartId} and c.location_id = ${locationId}`);
  return row ? { cart: withLines(cartColumns.read(row), row.c_lines) } : undefined;
};

const forUpdate = rawFragment(" for update of c");
const noLock = rawFragment("");

/** A cart with its lines, by id alone (no credential); undefined if there is none. */
export async function findCart(db: Executor, cartId: string, lock: "lock" | "no lock" = "no lock"): Promise<CartRow | undefined> {
  const [row] = await fragmentRows<Record<string, unknown>>(db, fragment`${cartOnlyQuery}${cartId}${lock === "lock" ? forUpdate : noLock}`);
  return row ? withLines(cartColumns.read(row), row.c_lines) : undefined;
}

/** The same, its row locked FOR UPDATE until the transaction ends (checkout: payments, the finalizer; jobs). */
export const lockCart = (tx: Executor, cartId: string): Promise<CartRow | undefined> => findCart(tx, cartId, "lock");

/**
 * The SQL naming one state of a cart row: its revision (which every change of the service moves), its
 * `xmin` (which any rewrite of the row moves, even one behind the service's back) and its `updated_at`.
 * `table` is the alias, or the table's name in an UPDATE's RETURNING.
 */
export const cartRowVersion = (table: string) =>
  `concat_ws('.', ${table}."revision", ${table}.xmin, (extract(epoch from ${table}."updated_at") * 1000000)::bigint)`;

const joinedCart = projection(carts, "c", "c_");
const joinedLocation = projection(locations, "l", "l_");
const joinedMerchant = projection(merchants, "m", "m_");
const withLocationHead = rawFragment(`select ${joinedCart.text}, ${cartRowVersion("c")} as "c_row_version", case when ${cartRowVersion("c")} = `);
// The lines a mutation's read leaves out when the row is still the version this process wrote (kept-cart-lines.ts).
const linesUnlessKept = rawFragment(
  ` then null else ${linesOfCart("c")} end as "c_lines", ${joinedLocation.text}, ${joinedMerchant.text} ` +
    `from carts c join locations l on l.id = c.location_id join merchants m on m.id = l.merchant_id where c.id = `,
);

type CartWithLocation = { cart: CartRow; location: LocationWithMerchant };

/** What a read of a cart compares the cart's recorded revisions to (services/revalidation.ts withDetectedChanges). */
export type LocationRevisions = Pick<LocationRow, "catalogRevision" | "policyRevision">;

/** Who may read or change a cart: what the credential is checked against. */
type CartOwner = Pick<CartRow, "tokenHash" | "merchantId" | "customerId">;

/**
 * A cart read for a GET: its owner, revision and row version at once; the rest (its JSON columns
 * above all) only when `decode` is called, which a read answered from a kept rendering never does
 * (services/rendered-carts.ts). `decode` is undefined when the read left the lines out for the
 * rendering this process keeps of that version (`"unless rendered"`): a read that cannot use it reads again. The version names this state of the row: its revision, its `xmin`
 * (moved by any rewrite of the row) and its `updated_at`.
 */
export type CartForRead = { cart: CartOwner; revision: number; version: string; revisions: LocationRevisions; decode: (() => CartRow) | undefined };

const readCart = projection(carts, "c", "c_", { jsonAsText: true });
// The lines are left out when the row is still the version, and its location at the revisions, that this process
// keeps a rendering of, still in time (rendered-carts.ts usableAt): that rendering answers.
const forReadQuery = rawFragment(
  `select ${readCart.text}, ${cartRowVersion("c")} as "c_row_version", ` +
    `l."catalog_revision" as "l_catalog_revision", l."policy_revision" as "l_policy_revision", case when ${cartRowVersion("c")} = `,
);
const forReadCatalog = rawFragment(` and l."catalog_revision" = `);
const forReadPolicy = rawFragment(` and l."policy_revision" = `);
const forReadFrom = rawFragment(` then null else ${linesOfCart("c")}::text end as "c_lines" from carts c join locations l on l.id = c.location_id where c.id = `);
/** What no row and location are: the read leaves nothing out. */
const noRendering = { version: "", revisions: { catalogRevision: -1, policyRevision: -1 } };

/** A text column of a raw row: a string, or null. */
const nullableText = (value: unknown): string | null => (typeof value === "string" ? value : null);

const readForViewUnlessRendered: CartRead<CartForRead> = (db, ctx, locationId, cartId) =>
  readForViewAt(db, locationId, cartId, ctx.deps.renderedCarts.usableAt(cartId, ctx.deps.now()) ?? noRendering);
const readForView: CartRead<CartForRead> = (db, _ctx, locationId, cartId) => readForViewAt(db, locationId, cartId, noRendering);

/** `rendered`: what the row and its location must be for the lines to be left out. */
async function readForViewAt(db: Executor, locationId: string, cartId: string, rendered: typeof noRendering): Promise<CartForRead | undefined> {
  const [row] = await fragmentRows<Record<string, unknown>>(
    db,
    fragment`${forReadQuery}${rendered.version}${forReadCatalog}${rendered.revisions.catalogRevision}${forReadPolicy}${rendered.revisions.policyRevision}${forReadFrom}${cartId} and c.location_id = ${locationId}`,
  );
  if (!row) return undefined;
  return {
    cart: { tokenHash: nullableText(row.c_token_hash), merchantId: nullableText(row.c_merchant_id) ?? "", customerId: nullableText(row.c_customer_id) },
    revision: Number(row.c_revision),
    version: nullableText(row.c_row_version) ?? "",
    revisions: { catalogRevision: Number(row.l_catalog_revision), policyRevision: Number(row.l_policy_revision) },
    // Null: left out for the kept rendering (the lines are never null otherwise: an empty cart's are "[]").
    decode: row.c_lines === null ? undefined : () => withLines(readCart.read(row), row.c_lines),
  };
}

/**
 * The cart read a mutation starts with, which its kind can send with the Idempotency-Key's claim
 * (server/trpc/procedures.ts): unchecked, until `loadAuthorized` checks the credential against it.
 * It reads the raw row; the row is decoded (its JSON parsed, its timestamps made Dates) only when the
 * use case takes it, so that a replay, which answers from the stored record, never decodes it.
 * `keptVersion`: the row version whose lines this process keeps (`keptVersionOf`); a row still at that
 * version comes without them. The read sent ahead is taken only by a read with the same arguments, so a
 * version kept meanwhile by another request of this process makes the mutation read again.
 */
export const cartReadAhead = readAhead((db: Executor, locationId: string, cartId: string, keptVersion: string) =>
  fragmentRows<Record<string, unknown>>(db, fragment`${withLocationHead}${keptVersion}${linesUnlessKept}${cartId} and c.location_id = ${locationId}`),
);

/** What to send as `keptVersion`: the version this process keeps the cart's lines at, or "" (which no row version equals). */
export const keptVersionOf = (ctx: Pick<RequestContext, "deps">, cartId: string): string => ctx.deps.keptCartLines.get(cartId)?.version ?? "";

const withLocation: CartRead<CartWithLocation> = async (db, ctx, locationId, cartId) => {
  const kept = ctx.deps.keptCartLines.get(cartId);
  const [row] = await cartReadAhead.read(db, locationId, cartId, kept?.version ?? "");
  if (!row) return undefined;
  // The lines come as an array, never null: null is Postgres leaving them out, for a row still at the kept version.
  let cart: CartRow;
  if (row.c_lines === null) {
    if (!kept || row.c_row_version !== kept.version) throw new Error("a cart read left out lines it does not keep");
    cart = { ...joinedCart.read(row), lines: kept.lines, priced: kept.priced };
  } else cart = withLines(joinedCart.read(row), row.c_lines);
  return { cart, location: { ...joinedLocation.read(row), merchant: joinedMerchant.read(row) } };
};

async function loadAuthorized<T extends { cart: CartOwner }>(db: Executor, ctx: RequestContext, locationId: string, cartId: string, read: CartRead<T>): Promise<T> {
  const { cartToken: token, bearer } = ctx.credential;
  if (!token && !bearer) throw new AppError("UNAUTHORIZED", "Send the cart's X-Cart-Token (or a customer bearer token)");
  if (!token) {
    const principal = await authenticateCustomer(ctx, db);
    const found = await read(db, ctx, locationId, cartId);
    if (!found) throw notFound("Cart");
    requireSameMerchant(principal, found.cart.merchantId);
    if (found.cart.customerId !== principal.customerId) throw new AppError("FORBIDDEN", "This cart belongs to someone else");
    return found;
  }
  const found = await read(db, ctx, locationId, cartId);
  if (!found) throw notFound("Cart");
  const presented = hashToken(token);
  if (found.cart.tokenHash && sameHash(presented, found.cart.tokenHash)) return found;
  const [other] = await db.select({ id: carts.id }).from(carts).where(eq(carts.tokenHash, presented)).limit(1);
  if (other) throw new AppError("FORBIDDEN", "This cart token belongs to a different cart");
  throw new AppError("UNAUTHORIZED", "The cart token is not valid");
}

export function conflict(currentRevision: number): AppError {
  return new AppError("CART_CONFLICT", "The cart changed since you read it; reload it and retry", {
    details: { currentRevision, currentETag: cartEtag(currentRevision) },
  });
}

export function cartResponseHeaders(revision: number): Record<string, string> {
  return { etag: cartEtag(revision), "cache-control": "private, no-store" };
}
