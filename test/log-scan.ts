import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One finding: which kind of secret appeared in which file and line (never the value itself). */
export type Leak = { kind: string; file: string; line: number; preview: string };

/** Characters of the credentials we issue and accept (base64url, JWT/JWE dots, Stripe ids): a secret is always one whole token. */
const TOKEN = /[A-Za-z0-9_.~-]+/g;

/**
 * A serialised error's stack frames (server/log-errors.ts): code locations only, whose chunk names
 * and line:column numbers are digits that a six-digit one-time code can equal by chance.
 */
const STACK_FIELD = /"stack":"(?:[^"\\]|\\.)*"/g;

/**
 * Finds recorded secrets in log text. Log lines are cut into tokens on every character no
 * credential contains (quotes, spaces, `=`, `/`, `:`), and each token is looked up in the set of
 * recorded secrets, so the scan is linear in the log size whatever the number of secrets; a
 * numeric one-time code only matches a whole number, never digits inside a timestamp, and stack
 * frames are not read (messages and every other field are).
 */
export function findLeaks(secrets: ReadonlyMap<string, string>, files: { name: string; text: string }[]): Leak[] {
  const leaks: Leak[] = [];
  for (const file of files) {
    const lines = file.text.split("\n");
    lines.forEach((fullLine, index) => {
      const line = fullLine.replace(STACK_FIELD, '"stack":""');
      for (const match of line.matchAll(TOKEN)) {
        const candidates = new Set([match[0], ...match[0].split(".")]);
        for (const candidate of candidates) {
          const kind = secrets.get(candidate);
          if (kind) leaks.push({ kind, file: file.name, line: index + 1, preview: line.replace(candidate, "<SECRET>").slice(0, 200) });
        }
      }
    });
  }
  return leaks;
}

/**
 * A value that is one token is looked up whole. Of a composite value ("Bearer x", Stripe's
 * "t=...,v1=..." signature) only the long random parts are: "Bearer" or a timestamp is not a secret.
 */
export function secretTokens(value: string): string[] {
  if (/^[A-Za-z0-9_.~-]+$/.test(value)) return value.length >= 6 ? [value] : [];
  // A random part mixes character classes; a long plain word ("idempotency_records", from a fuzzed
  // "'; DROP TABLE idempotency_records; --" header) is ordinary log text, not a credential.
  return (value.match(TOKEN) ?? []).filter((token) => token.length >= 16 && characterClasses(token) >= 2);
}

function characterClasses(token: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((pattern) => pattern.test(token)).length;
}

export type ScanResult = { secrets: number; logLines: number; requestLines: number; leaks: Leak[] };

/** Reads `secrets-*.ndjson`, `logs-*.ndjson` and `server-*.ndjson` from a TEST_LOG_DIR and scans. */
export function scanDirectory(dir: string): ScanResult {
  const names = readdirSync(dir);
  const secrets = new Map<string, string>();
  for (const name of names.filter((entry) => entry.startsWith("secrets-"))) {
    for (const line of readFileSync(path.join(dir, name), "utf8").split("\n")) {
      if (!line) continue;
      const { kind, value } = JSON.parse(line) as { kind: string; value: string };
      for (const token of secretTokens(value)) secrets.set(token, kind);
    }
  }
  const files = names.filter((entry) => entry.startsWith("logs-") || entry.startsWith("server-")).map((name) => ({ name, text: readFileSync(path.join(dir, name), "utf8") }));
  const lines = files.flatMap((file) => file.text.split("\n").filter(Boolean));
  const requestLines = lines.filter((line) => line.includes('"msg":"request"')).length;
  return { secrets: secrets.size, logLines: lines.length, requestLines, leaks: findLeaks(secrets, files) };
}
