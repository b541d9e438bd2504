/**
 * The JSON text a value was already serialised to (exactly what JSON.stringify gives for it), kept
 * weakly by the value itself, so that it is not serialised a second time:
 * - an answer: serialised once to be stored under its Idempotency-Key, and a replay's parsed from the
 *   stored text (server/services/answer-pack.ts); the REST adapter sends that text
 *   (server/http/openapi-bridge.ts);
 * - a cart's answer and its stored lines, assembled from texts kept per line (server/services/line-texts.ts);
 *   a JSON column's value is written as its known text (./write-clauses.ts).
 * Only for values nothing changes afterwards.
 */
const texts = new WeakMap<object, string>();

export function rememberJsonText(value: unknown, text: string): void {
  if (typeof value === "object" && value !== null) texts.set(value, text);
}

/** The value as JSON: the text it is known by, else JSON.stringify's (undefined for undefined, as JSON.stringify). */
export function jsonText(value: unknown): string | undefined {
  const known = typeof value === "object" && value !== null ? texts.get(value) : undefined;
  return known ?? JSON.stringify(value);
}
