import { getTableName, is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "../../../db/client";
import { fragment, rawFragment } from "../../../db/fragment";
import { projection } from "../../../db/projection";
import { fragmentRows } from "../../../db/rows";
import { customerSessions, customers } from "../../../db/schema";
import { AppError } from "../../errors";
import { bearerToken, readCustomerToken, type CustomerTokenClaims } from "../../security/customer-token";
import type { PresentedCredential, RequestContext } from "../../app/request-context";

export type CustomerRow = typeof customers.$inferSelect;

/** The signed-in customer behind a request: a live session of this customer at this merchant. */
export type CustomerPrincipal = {
  customerId: string;
  merchantId: string;
  sessionId: string;
  sessionExpiresAt: Date;
  customer: CustomerRow;
};

// Per request, so the token is decrypted at most once, and the session read at most once per
// transaction (or once outside any), however many checks ask. Keyed by the request's credential
// object: tRPC hands each middleware and the resolver a copy of the context, while the credential the
// kind presented (server/trpc/procedures.ts) is the same object in all. The session is read again in
// another transaction: a write that asks the courier for a quote between its checks and its
// transaction checks the session again in that transaction (../cart-preflight.ts), where a logout
// that committed meanwhile must stop it; one that acts at the card processor does not (its effect
// has taken place: server/trpc/operation-kinds.ts liveSessionAtCommit).
const claimsByRequest = new WeakMap<PresentedCredential, Promise<CustomerTokenClaims | undefined>>();
const principalByRequest = new WeakMap<PresentedCredential, WeakMap<Executor, { lock: SessionLock; principal: Promise<CustomerPrincipal> }>>();

/**
 * How a transaction reads the session row. "share": a write that acts for the customer holds it
 * until it commits, so a logout (which updates the row) waits for it, and a write that reads after a
 * logout committed sees the session ended: such a write never commits after the logout has answered
 * (which writes: the kind's liveSessionAtCommit, server/trpc/operation-kinds.ts).
 * "update": the logout's own read (it changes the row: taking "share" first and then updating would
 * deadlock with a second logout of the same session doing the same). Outside a transaction, no lock.
 */
export type SessionLock = "share" | "update";

/**
 * The claims of the request's bearer token when it is a customer token this service minted and it
 * has not expired, checked cryptographically only (no session lookup). The idempotency scope uses
 * it: a logged-out customer's retry must still replay its stored logout.
 */
export function bearerClaims(ctx: RequestContext): Promise<CustomerTokenClaims | undefined> {
  let claims = claimsByRequest.get(ctx.credential);
  if (!claims) {
    const token = bearerToken(ctx.credential.bearer);
    claims = token ? readCustomerToken(ctx.deps.env.secret, token, ctx.deps.now()) : Promise.resolve(undefined);
    claimsByRequest.set(ctx.credential, claims);
  }
  return claims;
}

/**
 * The signed-in customer, or 401. Besides the token (decryption, audience, expiry), the session row
 * is read by primary key together with its customer, one indexed query: a revoked (logged out) or
 * expired session, or claims that do not match it, are 401. Pass the transaction when called inside
 * one (PGlite has one connection).
 */
export function authenticateCustomer(ctx: RequestContext, db: Executor = ctx.deps.database.db, lock: SessionLock = "share"): Promise<CustomerPrincipal> {
  let byExecutor = principalByRequest.get(ctx.credential);
  if (!byExecutor) {
    byExecutor = new WeakMap();
    principalByRequest.set(ctx.credential, byExecutor);
  }
  const read = byExecutor.get(db);
  if (read) {
    if (read.lock === "share" && lock === "update") throw new Error("the session was read for share in this transaction before a read for update: declare the update where the read is sent ahead");
    return read.principal;
  }
  const principal = resolvePrincipal(ctx, db, lock);
  byExecutor.set(db, { lock, principal });
  return principal;
}

/**
 * Sends the session read of a request whose credential is the customer's bearer token (no cart token
 * beside it, which would win: server/services/cart-access.ts) in this transaction now, for
 * `authenticateCustomer` to find: a write's kind sends it with the Idempotency-Key's claim, in the
 * same round trip. Its refusal (401) surfaces only where the use case asks; a replay never does.
 */
export function readSessionAhead(ctx: RequestContext, tx: Executor, lock: SessionLock = "share"): void {
  if (!ctx.credential.bearer || ctx.credential.cartToken) return;
  authenticateCustomer(ctx, tx, lock).catch(() => undefined);
}

/**
 * In the transaction that commits a write made with the customer's bearer token (and no cart token,
 * which would win): 401 unless the session is still live, the row held until the commit (see
 * SessionLock). Answered from the read sent with the key's claim when there was one.
 */
export async function requireLiveSession(ctx: RequestContext, tx: Executor): Promise<void> {
  if (!ctx.credential.bearer || ctx.credential.cartToken) return;
  await authenticateCustomer(ctx, tx);
}

// The session with its customer, by the session's primary key: written once from the schema
// (db/projection.ts), as every signed-in request reads it.
const sessionColumns = projection(customerSessions, "s", "s_");
const customerColumns = projection(customers, "cu", "cu_");
const sessionQuery = rawFragment(
  `select ${sessionColumns.text}, ${customerColumns.text} from "${getTableName(customerSessions)}" s ` +
    `join "${getTableName(customers)}" cu on cu.id = s.customer_id where s.id = `,
);
const sessionLocks = { share: rawFragment(" for share of s"), update: rawFragment(" for update of s") } satisfies Record<SessionLock, unknown>;
const noLock = rawFragment("");

async function resolvePrincipal(ctx: RequestContext, db: Executor, lock: SessionLock): Promise<CustomerPrincipal> {
  if (!ctx.credential.bearer) throw new AppError("UNAUTHORIZED", "Sign in first: send Authorization: Bearer <customer token>");
  const claims = await bearerClaims(ctx);
  if (!claims) throw new AppError("UNAUTHORIZED", "The bearer token is not a valid customer token (malformed, expired or issued for something else)");
  // is(), not instanceof: it holds across two copies of drizzle-orm in one bundle.
  const locked = is(db, PgTransaction) ? sessionLocks[lock] : noLock;
  const [found] = await fragmentRows<Record<string, unknown>>(db, fragment`${sessionQuery}${claims.sid}${locked}`);
  const row = found && { session: sessionColumns.read(found), customer: customerColumns.read(found) };
  const live =
    row !== undefined &&
    row.session.revokedAt === null &&
    row.session.expiresAt > ctx.deps.now() &&
    row.session.customerId === claims.sub &&
    row.session.merchantId === claims.mid &&
    row.customer.merchantId === claims.mid;
  if (!live) throw new AppError("UNAUTHORIZED", "This customer session has ended (signed out or expired); sign in again");
  return { customerId: row.customer.id, merchantId: row.customer.merchantId, sessionId: row.session.id, sessionExpiresAt: row.session.expiresAt, customer: row.customer };
}

/** 403 unless the resource belongs to the principal's merchant. */
export function requireSameMerchant(principal: CustomerPrincipal, merchantId: string): void {
  if (principal.merchantId !== merchantId) {
    throw new AppError("FORBIDDEN", "This customer session belongs to another merchant: sign in at this merchant");
  }
}
