/**
 * Cart revisions travel as ETags: `"cart-<revision>"`, optionally weak (`W/`). Revision is 0 or a
 * positive integer without leading zeros, and no larger than 2^53 - 1.
 */
export const CART_ETAG = /^(?:W\/)?"cart-(0|[1-9]\d{0,15})"$/;

export function cartEtag(revision: number): string {
  return `"cart-${revision}"`;
}

export type IfMatch = { kind: "missing" } | { kind: "malformed" } | { kind: "revision"; revision: number };

export function parseIfMatch(header: string | null | undefined): IfMatch {
  if (header === null || header === undefined || header.trim() === "") return { kind: "missing" };
  const match = CART_ETAG.exec(header.trim());
  if (!match?.[1]) return { kind: "malformed" };
  const revision = Number(match[1]);
  if (!Number.isSafeInteger(revision)) return { kind: "malformed" };
  return { kind: "revision", revision };
}
