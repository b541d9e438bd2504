import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { customerSessions } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { mintCustomerToken } from "../../security/customer-token";
import { newId } from "../../security/tokens";
import type { TransactionalWrite } from "../operation-context";
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
export async function logout(ctx: TransactionalWrite): Promise<{ loggedOut: true }> {
  const { tx } = ctx;
  const principal = await authenticateCustomer(ctx, tx, "update");
  await tx
    .update(customerSessions)
    .set({ revokedAt: ctx.deps.now() })
    .where(and(eq(customerSessions.id, principal.sessionId), isNull(customerSessions.revokedAt)));
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return { loggedOut: true as const };
}
