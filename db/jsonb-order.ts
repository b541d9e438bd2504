/**
 * A value as Postgres gives a jsonb column's value back: each object's keys in jsonb's order (shorter
 * keys first, keys of one length by their UTF-8 bytes), recursively; arrays as they are. A cart's
 * answer gives its jsonb values in that order (server/services/cart-view.ts), whether they were read,
 * just written or just computed, so that every answer of one revision is the same bytes, as its strong
 * ETag promises (test/integration/mutation-answers.test.ts, run against `npm start`, where responses
 * are not re-parsed by their schema).
 */
export function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined);
  keys.sort(byJsonbKeyOrder);
  const ordered: Record<string, unknown> = {};
  // Defined, not assigned: a client's "__proto__" key stays a key.
  for (const key of keys) Object.defineProperty(ordered, key, { value: inJsonbOrder(record[key]), enumerable: true, writable: true, configurable: true });
  return ordered;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

function byJsonbKeyOrder(a: string, b: string): number {
  // For ASCII keys, UTF-16 code units are the UTF-8 bytes.
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));
}
