import { secureRandomBytes } from "../security/random";

const ID_BYTES = 12;

/**
 * Opaque, unique, at least 8 characters (the spec's minimum): `req_` + 16 random base64url characters,
 * drawn from the process's pool of random bytes (security/random.ts), as every request gets one.
 */
export function newRequestId(): string {
  return `req_${secureRandomBytes(ID_BYTES).toString("base64url")}`;
}
