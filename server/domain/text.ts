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

/** The first string (property name or value) in a parsed JSON value that cannot be stored as sent. */
export function findUnstorableText(value: unknown, path = ""): TextIssue | undefined {
  if (typeof value === "string") {
    const message = problemOf(value);
    return message === undefined ? undefined : { path: path || "(root)", message };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const issue = findUnstorableText(item, `${path}[${index}]`);
      if (issue) return issue;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      const childPath = path ? `${path}.${key}` : key;
      if (keyProblem) return { path: childPath, message: `property name ${keyProblem}` };
      const issue = findUnstorableText(item, childPath);
      if (issue) return issue;
    }
  }
  return undefined;
}
