import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The secret for a production build running on the embedded defaults (no AUTH_SECRET, no
 * DATABASE_URL): generated once at random and kept beside the embedded database, readable only by
 * its owner, so it survives restarts (tokens stay valid) without ever being a value from the
 * source. An in-memory database gets a per-process secret.
 */
export function localSecret(pgliteDataDir: string): string {
  if (pgliteDataDir.startsWith("memory://")) return randomBytes(32).toString("base64url");
  const file = path.join(path.dirname(path.resolve(pgliteDataDir)), "auth-secret");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
