import type { AppDeps } from "../app/deps";
import { codeToStatus, toEnvelope, type AppError } from "../errors";
import { toAppError } from "../errors-map";
import { logger } from "../log";

/** The spec's error envelope as a response, with the request id in the body and the header, never cached. */
export function errorResponse(error: AppError, requestId: string, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(toEnvelope(error, requestId)), {
    status: codeToStatus[error.code],
    headers: {
      ...headers,
      ...error.headers,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
  });
}

/** Unexpected failures are logged with their cause; the client sees only the masked envelope. */
export function logUnexpected(error: unknown, requestId: string | undefined): void {
  const appError = toAppError(error);
  if (appError.status >= 500) logger.error({ requestId, code: appError.code, err: appError.cause ?? error }, "request failed");
}

/**
 * The process's dependencies for one request, or, when they cannot start (no database, invalid
 * configuration), the error envelope to answer with. Every route handler begins with this.
 */
export async function depsOrErrorResponse(getDeps: () => Promise<AppDeps>, requestId: string, headers: Record<string, string> = {}): Promise<AppDeps | Response> {
  try {
    return await getDeps();
  } catch (error) {
    return errorResponse(toAppError(error), requestId, headers);
  }
}
