/**
 * Text the service accepts from clients must be storable as sent: Postgres text and jsonb cannot
 * hold U+0000, and a lone UTF-16 surrogate is not Unicode at all (the driver would silently store
 * U+FFFD instead, so a replay or a read-back would differ from what the client sent).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type TextIssue = { path: string; message: string };

function problemOf(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL (U+0000) character";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode)";
  return undefined;
}

/**
 * The first string (property name or value) in a parsed JSON value that cannot be stored as sent.
 * Walked with an explicit stack, depth first in document order, so no nesting can overflow the call stack.
 */
export function findUnstorableText(value: unknown): TextIssue | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: "" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === "string") {
      const message = problemOf(current);
      if (message !== undefined) return { path: path || "(root)", message };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], path: `${path}[${index}]` });
    } else if (typeof current === "object" && current !== null) {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const keyProblem = problemOf(key);
        if (keyProblem) return { path: path ? `${path}.${key}` : key, message: `property name ${keyProblem}` };
      }
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index] as [string, unknown];
        pending.push({ value: item, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}
