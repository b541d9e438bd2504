import { createHash } from "node:crypto";

/** Crockford's base32 without I, L, O and U: nothing a customer or a cashier can misread aloud. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The order number a customer reads out at the counter ("K7Q-2M4"), derived from the order id so it
 * needs no counter row that every checkout would contend on. 30 bits: among a location's orders of a
 * busy day (a few thousand) two share a number with a chance of about one in a thousand, and the
 * receipt and the order id still tell them apart.
 */
export function orderNumberOf(orderId: string): string {
  const digest = createHash("sha256").update(orderId).digest();
  const bits = digest.readUInt32BE(0) >>> 2;
  let code = "";
  for (let shift = 25; shift >= 0; shift -= 5) code += ALPHABET[(bits >>> shift) & 31];
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}
