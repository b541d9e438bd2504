import { randomFillSync } from "node:crypto";

const ID_BYTES = 12;
const POOL_BYTES = ID_BYTES * 512;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * Opaque, unique, at least 8 characters (the spec's minimum): `req_` + 16 random base64url characters.
 * Every request gets one, so the random bytes come from a pool refilled 512 ids at a time: one call into
 * the system's generator per request cost more than the rest of the id. Ids are not secrets (every response
 * echoes its own), so sharing a buffer between ids leaks nothing.
 */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}
