/**
 * Facts about a Postgres connection string that the `postgres` driver does not know by itself.
 * Pure: no I/O, used by server/env.ts (defaults and warnings) and db/open.ts (connecting).
 */

/**
 * Query parameters that hosted-Postgres dashboards and Vercel's integrations put in their URLs for
 * other clients (Prisma, libpq). The `postgres` driver would send each unknown one to the server as
 * a run-time setting, and Postgres refuses the connection: `unrecognized configuration parameter
 * "pgbouncer"`. They are dropped before connecting. (`channel_binding` is libpq's; the driver does
 * not implement it, so it cannot be honoured, only dropped.)
 */
const CLIENT_ONLY_PARAMS = [
  "pgbouncer",
  "channel_binding",
  "connection_limit",
  "pool_timeout",
  "statement_cache_size",
  "socket_timeout",
  "schema",
  "supa",
  "sslaccept",
  "sslidentity",
  "sslpassword",
];

export function normalizeConnectionUrl(raw: string): string {
  const url = new URL(raw);
  for (const name of CLIENT_ONLY_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

/**
 * Why a URL looks like a transaction-mode pooler (PgBouncer and the like), or undefined. Behind
 * one, consecutive statements may run on different server sessions: named prepared statements and
 * session-level advisory locks do not survive that.
 * - `pgbouncer=true`: the marker Prisma-style pooled URLs carry (Vercel Postgres, Supabase).
 * - port 6543: Supabase's transaction-mode pooler (its session mode is 5432).
 * - a host name with `-pooler.`: Neon's pooled endpoints (`ep-...-pooler.<region>.aws.neon.tech`).
 */
export function transactionPoolerHint(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.searchParams.get("pgbouncer") === "true") return "it carries pgbouncer=true";
  if (url.port === "6543") return "it uses port 6543 (Supabase's transaction pooler)";
  if (url.hostname.includes("-pooler.")) return `its host ${url.hostname} is a pooled endpoint`;
  return undefined;
}

/** User, host and database only (no password, no parameters), for messages. */
export function redactConnectionUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.username ? `${url.username}@` : ""}${url.host}${url.pathname}`;
  } catch {
    return "(unparseable URL)";
  }
}
