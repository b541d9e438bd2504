import { createHmac, randomInt } from "node:crypto";
import { deriveKey, sameHash } from "./tokens";

/**
 * One-time codes: 6 uniformly random digits, stored only as HMAC-SHA256 under a key derived from
 * AUTH_SECRET and bound to the challenge id (a code's hash is useless for any other challenge, and
 * a database dump does not allow an offline search without the secret). Identifiers are stored the
 * same way, under another key, for the per-identifier limits.
 */
export const OTP_LENGTH = 6;

export function newOtpCode(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, "0");
}

const keys = new Map<string, Buffer>();
function keyFor(secret: string, purpose: "otp-code" | "otp-identifier"): Buffer {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = deriveKey(secret, purpose);
    keys.set(cacheKey, key);
  }
  return key;
}

export function otpCodeHash(secret: string, challengeId: string, code: string): string {
  return createHmac("sha256", keyFor(secret, "otp-code")).update(`${challengeId}:${code}`).digest("hex");
}

/** Constant-time comparison of a presented code with the stored hash. */
export function otpCodeMatches(secret: string, challengeId: string, presented: string, storedHash: string): boolean {
  return sameHash(otpCodeHash(secret, challengeId, presented), storedHash);
}

export function identifierKey(secret: string, normalisedIdentifier: string): string {
  return createHmac("sha256", keyFor(secret, "otp-identifier")).update(normalisedIdentifier).digest("hex");
}
