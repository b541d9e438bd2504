import { createCipheriv, createDecipheriv, createHash, hkdfSync, timingSafeEqual } from "node:crypto";
import { secureRandomBytes } from "./random";

/**
 * Opaque capabilities (cart, receipt): 256 random bits, prefixed by kind so a leaked token says what
 * it is. Only the SHA-256 is stored; the database never holds a usable token.
 */
export function newCapability(prefix: "ct" | "rt"): string {
  return `${prefix}_${secureRandomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function newId(prefix: string): string {
  return `${prefix}_${secureRandomBytes(12).toString("base64url")}`;
}

/** A 256-bit key for one purpose, derived from the service secret (HKDF-SHA256). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "storefront-ordering-service", purpose, 32));
}

/** AES-256-GCM: `base64url(iv | tag | ciphertext)`. */
export function seal(key: Buffer, plaintext: string | Buffer): string {
  const iv = secureRandomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([typeof plaintext === "string" ? cipher.update(plaintext, "utf8") : cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function unsealBytes(key: Buffer, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
}

export function unseal(key: Buffer, sealed: string): string {
  return unsealBytes(key, sealed).toString("utf8");
}
