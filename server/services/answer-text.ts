/**
 * The JSON text an answer was already serialised to, kept (weakly) by the answer object itself, so
 * that the REST adapter sends that text instead of serialising the same object a second time
 * (server/http/openapi-bridge.ts): a write's answer is serialised once to be stored under its
 * Idempotency-Key, and a replay's answer is parsed from the stored text (./answer-pack.ts). Only for
 * objects nothing changes afterwards: an answer is final once stored.
 */
const texts = new WeakMap<object, string>();

export function rememberAnswerText(answer: unknown, text: string): void {
  if (typeof answer === "object" && answer !== null) texts.set(answer, text);
}

/** The answer as JSON: the text it was stored as, else JSON.stringify's (undefined for undefined, as JSON.stringify). */
export function answerText(answer: unknown): string | undefined {
  const known = typeof answer === "object" && answer !== null ? texts.get(answer) : undefined;
  return known ?? JSON.stringify(answer);
}
