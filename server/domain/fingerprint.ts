import { createHash } from "node:crypto";

/** A value's canonical JSON already made (a long list whose items' texts are kept, say): canonicalJson places it as it is. */
export class CanonicalText {
  constructor(readonly text: string) {}
}

/**
 * Canonical JSON: object keys sorted, no whitespace, undefined members dropped. Two values that
 * mean the same thing serialise to the same text, so their SHA-256 is a stable fingerprint.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value) ?? "null";
  }
  if (value instanceof CanonicalText) return value.text;
  // Built by appending, without the entry arrays, filters and joins of each level: every write
  // fingerprints its request and every repricing its quote (fingerprint.test.ts holds the text to
  // the one the earlier, array-built version wrote, which stored fingerprints were made with).
  if (Array.isArray(value)) {
    // A list of strings (a quote's lines, one text each) is the same text as JSON.stringify gives, made natively.
    if (value.every((item) => typeof item === "string")) return JSON.stringify(value);
    let text = "[";
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      text += `${index === 0 ? "" : ","}${canonicalJson(item === undefined ? null : item)}`;
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = "{";
  let first = true;
  // Default sort order: UTF-16 code units, as comparing the keys with < does.
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${text}}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function fingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
