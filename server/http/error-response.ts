import type { AppDeps } from "../app/deps";
import { codeToStatus, toEnvelope, type AppError } from "../errors";
import { toAppError } from "../errors-map";
import { logger } from "../log";
import { restAnswer, toResponse, type RestAnswer } from "./rest-answer";

/** The spec's error envelope, with the request id in the body and the header, never cached. */
export function errorAnswer(error: AppError, requestId: string, headers: Record<string, string>): RestAnswer {
  return restAnswer(
    codeToStatus[error.code],
    {
      ...headers,
      ...error.headers,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
    JSON.stringify(toEnvelope(error, requestId)),
  );
}

/** The spec's error envelope as a response (errorAnswer). */
export function errorResponse(error: AppError, requestId: string, headers: Record<string, string>): Response {
  return toResponse(errorAnswer(error, requestId, headers));
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
  const started = await startDeps(getDeps);
  return started.ok ? started.deps : errorResponse(started.error, requestId, headers);
}

/** The process's dependencies, or the AppError they failed to start with (depsOrErrorResponse). */
export async function startDeps(getDeps: () => Promise<AppDeps>): Promise<{ ok: true; deps: AppDeps } | { ok: false; error: AppError }> {
  try {
    return { ok: true, deps: await getDeps() };
  } catch (error) {
    return { ok: false, error: toAppError(error) };
  }
}
