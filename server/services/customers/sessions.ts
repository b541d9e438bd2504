import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { customerSessions } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { mintCustomerToken } from "../../security/customer-token";
import { newId } from "../../security/tokens";
import type { RequestContext } from "../../app/request-context";
import { runIdempotent } from "../idempotency";
import { authenticateCustomer, type CustomerRow } from "./principal";

/** A new session for a customer who just proved a one-time code, and its bearer token. */
export async function startSession(tx: Tx, deps: AppDeps, customer: CustomerRow): Promise<string> {
  const now = deps.now();
  const ttlSeconds = deps.env.CUSTOMER_SESSION_TTL_HOURS * 3600;
  const sessionId = newId("ses");
  await tx.insert(customerSessions).values({
    id: sessionId,
    customerId: customer.id,
    merchantId: customer.merchantId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
  });
  return mintCustomerToken(deps.env.secret, { sub: customer.id, mid: customer.merchantId, sid: sessionId }, ttlSeconds);
}

/** A fresh token for the current session (same session id, same end). */
export function renewToken(deps: AppDeps, session: { customerId: string; merchantId: string; sessionId: string; sessionExpiresAt: Date }): Promise<string> {
  const remaining = (session.sessionExpiresAt.getTime() - deps.now().getTime()) / 1000;
  return mintCustomerToken(deps.env.secret, { sub: session.customerId, mid: session.merchantId, sid: session.sessionId }, remaining);
}

/** DELETE /customer/logout: revokes the session at once; its token is refused from the next request on. */
export function logout(ctx: RequestContext): Promise<{ loggedOut: true }> {
  return runIdempotent(ctx, { operation: "customer.logout", input: {} }, async (tx) => {
    const principal = await authenticateCustomer(ctx, tx);
    await tx
      .update(customerSessions)
      .set({ revokedAt: ctx.deps.now() })
      .where(and(eq(customerSessions.id, principal.sessionId), isNull(customerSessions.revokedAt)));
    return { body: { loggedOut: true as const }, headers: { "cache-control": "private, no-store" } };
  });
}
