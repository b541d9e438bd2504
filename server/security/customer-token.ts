import { decode, encode } from "@auth/core/jwt";
import { z } from "zod";

/**
 * The customer bearer token: an Auth.js JWT (`@auth/core/jwt`), which is a JWE ("dir" +
 * A256CBC-HS512) whose key is derived with HKDF from AUTH_SECRET and the salt below. It is
 * encrypted and authenticated, so its claims can be neither read nor forged without the secret;
 * `alg: none`, signed-only JWTs and anything else that is not a JWE of ours fail to decrypt.
 *
 * The salt is specific to this use: a token minted for any other purpose with the same secret (a
 * different salt) does not decrypt, and the audience claim is checked on top. Expiry (`exp`, set by
 * `encode` from maxAge) is checked by `decode`; the session row carries the authoritative expiry
 * and revocation (server/services/customers/principal.ts).
 */
export const CUSTOMER_TOKEN_SALT = "storefront-ordering-service.customer-session.v1";
export const CUSTOMER_TOKEN_AUDIENCE = "storefront:customer";

export type CustomerTokenClaims = {
  /** Customer id. */
  sub: string;
  /** The merchant the session is bound to. */
  mid: string;
  /** Session id (customer_sessions.id). */
  sid: string;
};

const claimsSchema = z.object({
  sub: z.string().min(1).max(128),
  mid: z.string().min(1).max(128),
  sid: z.string().min(1).max(128),
  aud: z.literal(CUSTOMER_TOKEN_AUDIENCE),
  iat: z.number().int(),
  exp: z.number().int(),
});

/** A token for the session, valid for `maxAgeSeconds` (the session's remaining lifetime). */
export function mintCustomerToken(secret: string, claims: CustomerTokenClaims, maxAgeSeconds: number): Promise<string> {
  return encode({ secret, salt: CUSTOMER_TOKEN_SALT, maxAge: Math.max(1, Math.floor(maxAgeSeconds)), token: { ...claims, aud: CUSTOMER_TOKEN_AUDIENCE } });
}

/**
 * A JWE in compact form exactly as `encode` writes it: five base64url parts without padding (the
 * encrypted-key part is empty for "dir"). The decoder would also take padded or otherwise altered
 * spellings of the same token, so a client could present one token under many texts.
 */
const COMPACT_JWE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The claims of a token this service minted and that has not expired at `now`; undefined for anything
 * else. Expiry is exact: Auth.js's decode allows 15 s of clock skew, which a server checking the
 * tokens it minted itself with its own clock does not need, so `exp` is checked again here.
 */
export async function readCustomerToken(secret: string, token: string, now: Date): Promise<CustomerTokenClaims | undefined> {
  // Anything that is not our JWE (a JWT with alg none, a cart token, padding) is not ours.
  if (token.length > 4096 || !COMPACT_JWE.test(token)) return undefined;
  let payload: unknown;
  try {
    payload = await decode({ secret, salt: CUSTOMER_TOKEN_SALT, token });
  } catch {
    return undefined;
  }
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success || parsed.data.exp * 1000 <= now.getTime()) return undefined;
  return { sub: parsed.data.sub, mid: parsed.data.mid, sid: parsed.data.sid };
}

/** The token of an `Authorization: Bearer <token>` header; undefined for any other scheme or shape. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header?.trim() ?? "");
  return match?.[1];
}
