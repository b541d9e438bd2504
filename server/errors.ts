import { isErrorKind, markErrorKind } from "./error-kind";

/**
 * The one error type of the service. Every failure a client can see is an AppError whose code is
 * one of the spec's codes; `codeToStatus` is the single table from code to HTTP status, and
 * `toEnvelope` the single place that turns an error into the spec's closed envelope.
 */
export const errorCodes = [
  "VALIDATION_ERROR",
  "IDEMPOTENCY_KEY_REQUIRED",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "RATE_LIMITED",
  "CART_CONFLICT",
  "REQUOTE_REQUIRED",
  "RESOURCE_CONFLICT",
  "CART_IMMUTABLE",
  "IDEMPOTENCY_KEY_REUSED",
  "IDEMPOTENCY_IN_PROGRESS",
  "PRECONDITION_REQUIRED",
  "DEPENDENCY_UNAVAILABLE",
  "INTERNAL_ERROR",
  // Beyond the contract's list, which allows other codes: the transport's own answers.
  "METHOD_NOT_ALLOWED",
  "REQUEST_HEADERS_TOO_LARGE",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const codeToStatus: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  CART_CONFLICT: 409,
  REQUOTE_REQUIRED: 409,
  RESOURCE_CONFLICT: 409,
  CART_IMMUTABLE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PRECONDITION_REQUIRED: 428,
  DEPENDENCY_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_HEADERS_TOO_LARGE: 431,
};

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Extra response headers this error needs (Retry-After on 429/503). */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    markErrorKind(this, "AppError");
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return codeToStatus[this.code];
  }
}

/** Any copy of AppError (server/error-kind.ts says why not `instanceof`). */
export const isAppError = (value: unknown): value is AppError => isErrorKind<AppError>(value, "AppError");

export type FieldIssue = { path: string; message: string };

export const validationError = (message: string, fields: FieldIssue[] = []) =>
  new AppError("VALIDATION_ERROR", message, fields.length > 0 ? { details: { fields } } : {});

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} was not found`);

export const internalError = (cause?: unknown) =>
  new AppError("INTERNAL_ERROR", "An unexpected error occurred. Quote the request id when reporting it.", { cause });

export const dependencyUnavailable = (dependency: string, cause?: unknown) =>
  new AppError("DEPENDENCY_UNAVAILABLE", `${dependency} is temporarily unavailable; retry shortly`, {
    cause,
    headers: { "Retry-After": "2" },
  });

export type ErrorEnvelope = {
  code: string;
  message: string;
  requestId: string;
  details?: ErrorDetails;
};

export function toEnvelope(error: AppError, requestId: string): ErrorEnvelope {
  return error.details === undefined
    ? { code: error.code, message: error.message, requestId }
    : { code: error.code, message: error.message, requestId, details: error.details };
}
