import type { Env } from "../env";

/**
 * Header that scripts/serve.mjs (our `npm start`) sets from the TCP peer address, after deleting
 * any value a client sent. Only trusted in "socket" mode, and only in a process where that server
 * declared itself (below): under plain `next start` or `next dev` a client could send it.
 */
export const PEER_ADDRESS_HEADER = "x-storefront-peer-address";

/** scripts/serve.mjs sets this global (by the same Symbol.for name) before Next.js loads any route. */
const PEER_STAMPER = Symbol.for("storefront-ordering-service.peerAddressStamper");

/** Declares that every request reaching this process went through a server that overwrote PEER_ADDRESS_HEADER. */
export function declarePeerAddressStamping(): void {
  (globalThis as Record<symbol, unknown>)[PEER_STAMPER] = true;
}

export function peerAddressStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[PEER_STAMPER] === true;
}

export type ClientIpSource = "vercel" | "socket" | "forwarded";

export function resolveClientIpSource(env: Pick<Env, "CLIENT_IP_SOURCE" | "VERCEL">): ClientIpSource {
  if (env.CLIENT_IP_SOURCE !== "auto") return env.CLIENT_IP_SOURCE;
  return env.VERCEL ? "vercel" : "socket";
}

/**
 * Where the rate limit's client address comes from, per deployment; in none of them can a client
 * choose it:
 * - vercel: Vercel's edge overwrites X-Real-IP / X-Forwarded-For with the connecting address.
 * - forwarded: behind N trusted proxies, the N-th address from the right of X-Forwarded-For is
 *   the one our outermost proxy saw; anything to its left was written by the client.
 * - socket: `npm start` (scripts/serve.mjs) stamps the TCP peer address. Without that server in
 *   front (`next start`, `next dev`) the header is ignored.
 * When the expected source is absent, all such requests share one bucket ("unknown").
 */
export function clientIp(headers: Headers, env: Pick<Env, "CLIENT_IP_SOURCE" | "VERCEL" | "TRUSTED_PROXY_COUNT">): string {
  switch (resolveClientIpSource(env)) {
    case "vercel":
      return headers.get("x-real-ip")?.trim() || firstForwarded(headers) || "unknown";
    case "forwarded": {
      const hops = (headers.get("x-forwarded-for") ?? "")
        .split(",")
        .map((hop) => hop.trim())
        .filter(Boolean);
      return hops[hops.length - env.TRUSTED_PROXY_COUNT] ?? hops[0] ?? "unknown";
    }
    case "socket":
      return (peerAddressStamped() && headers.get(PEER_ADDRESS_HEADER)?.trim()) || "unknown";
  }
}

function firstForwarded(headers: Headers): string | undefined {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}
