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
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  return texts.get(value) ?? envelopeText(value) ?? JSON.stringify(value);
}

/** Envelopes have a few members (`{ cart, cartAccessToken }`); a larger object is not looked into. */
const ENVELOPE_MEMBERS = 8;

/**
 * The text of a small plain object with a member whose text is known (an answer that wraps a cart:
 * the ordering session's `{ cart, cartAccessToken }`, what is stored of it, a customer's `{ cart }`),
 * made from that member's text rather than by serialising the cart again: the same text as
 * JSON.stringify's (own enumerable keys in their order, members it leaves out left out). Undefined
 * for any other value.
 */
function envelopeText(value: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > ENVELOPE_MEMBERS || "toJSON" in record) return undefined;
  if (!keys.some((key) => { const member = record[key]; return typeof member === "object" && member !== null && texts.has(member); })) return undefined;
  let text = "";
  for (const key of keys) {
    const member = jsonText(record[key]);
    if (member !== undefined) text += `${text === "" ? "" : ","}${JSON.stringify(key)}:${member}`;
  }
  return `{${text}}`;
}
