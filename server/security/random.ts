import { randomBytes, randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
// Its own memory (allocUnsafeSlow): never a slice of Node's shared buffer pool, so no other Buffer's
// `.buffer` reaches these bytes.
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * Cryptographically secure random bytes, drawn from a pool refilled 4 KiB at a time, as Node's own
 * crypto.randomUUID draws its bytes: a call into the generator costs about 2 µs whatever its size (0.2
 * from the pool), and a request takes several (ids, capabilities, an IV per sealed answer). Each
 * caller gets its own copy, and the pool's bytes are zeroed as they are handed out, so none is given
 * twice or kept once given.
 */
export function secureRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}
