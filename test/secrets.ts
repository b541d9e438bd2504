import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * Records every credential-like value the tests send or receive, so that the log scan at the end of
 * `npm test` (scripts/scan-test-logs.ts) can prove none of them reached a log line. Active when
 * TEST_LOG_DIR is set (scripts/test.sh sets it); a no-op otherwise.
 */
export type SecretKind = "header" | "token" | "client-secret" | "otp" | "password" | "card-number";

/** Request/response headers that carry credentials. */
const SECRET_HEADERS = ["authorization", "x-cart-token", "x-receipt-token", "stripe-signature", "cookie", "set-cookie"];
/** JSON keys whose string values are credentials (cartAccessToken, receiptToken, token, clientSecret, otp, ...). */
const SECRET_KEY = /token|secret|otp|password|passcode/i;
/** A primary account number anywhere in a JSON body: 13-19 digits. */
const CARD_NUMBER = /^\d{13,19}$/;

let fd: number | undefined;
let opened = false;

function sink(): number | undefined {
  if (!opened) {
    opened = true;
    const dir = process.env.TEST_LOG_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      fd = openSync(path.join(dir, `secrets-${process.pid}.ndjson`), "a");
      process.once("exit", () => fd !== undefined && closeSync(fd));
    }
  }
  return fd;
}

export function recordSecret(kind: SecretKind, value: string): void {
  const target = sink();
  const trimmed = value.trim();
  // Shorter values (an empty header, "Bearer") cannot be told apart from ordinary log text.
  if (target === undefined || trimmed.length < 6) return;
  writeSync(target, `${JSON.stringify({ kind, value: trimmed })}\n`);
}

/** Header credentials, and for `Authorization: Bearer x` also `x` alone. */
export function recordSecretHeaders(headers: Headers): void {
  for (const name of SECRET_HEADERS) {
    const value = headers.get(name);
    if (!value) continue;
    recordSecret("header", value);
    const scheme = /^(Bearer|Basic)\s+(.+)$/i.exec(value);
    if (scheme?.[2]) recordSecret("header", scheme[2]);
  }
}

/** Walks a parsed JSON body for credential-like fields and card numbers. */
export function recordSecretsIn(body: unknown, depth = 0): void {
  if (depth > 12 || body === null || typeof body !== "object") return;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === "string") {
      if (CARD_NUMBER.test(value.replace(/[\s-]/g, ""))) recordSecret("card-number", value.replace(/[\s-]/g, ""));
      else if (SECRET_KEY.test(key)) recordSecret(kindOf(key), value);
    } else {
      recordSecretsIn(value, depth + 1);
    }
  }
}

function kindOf(key: string): SecretKind {
  if (/otp|passcode/i.test(key)) return "otp";
  if (/password/i.test(key)) return "password";
  if (/secret/i.test(key)) return "client-secret";
  return "token";
}
