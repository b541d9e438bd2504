/**
 * How errors are written to logs. Driver errors carry the failed statement's parameters in their
 * message ("Failed query: ... params: <values>"), and those values can be keys, identifiers or
 * customer data; so a logged error keeps each cause's name, code and message with parameters cut,
 * and its stack frames without the first line (which repeats the message).
 */
export type LoggedError = { type: string; code?: string; message: string; stack?: string; cause?: LoggedError };

const MAX_DEPTH = 6;

export function redactErrorMessage(message: string): string {
  return message
    .replace(/\nparams:[\s\S]*$/, "")
    .replace(/(Failed query: [\s\S]{0,300})[\s\S]*/, "$1")
    .slice(0, 500);
}

export function serializeError(value: unknown, depth = 0): LoggedError | undefined {
  if (depth >= MAX_DEPTH || value === undefined || value === null) return undefined;
  if (!(value instanceof Error)) return { type: typeof value, message: "[non-error value]" };
  const code = (value as { code?: unknown }).code;
  const frames = value.stack?.split("\n").filter((line) => line.trimStart().startsWith("at ")).slice(0, 12).join("\n");
  const cause = serializeError(value.cause, depth + 1);
  return {
    type: value.name,
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    message: redactErrorMessage(value.message),
    ...(frames ? { stack: frames } : {}),
    ...(cause ? { cause } : {}),
  };
}
