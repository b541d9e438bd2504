/**
 * Every failure the storefront shows, whatever its origin (the API's error, a rate-limit envelope,
 * a dropped connection), as one shape: the API's code and message, the HTTP status when there was
 * a response, and the request id to quote to support.
 */
export type FieldIssue = { path: string; message: string };

/** Code used when no response arrived at all (offline, DNS, timeout, connection reset). */
export const NETWORK_ERROR = "NETWORK_ERROR";

/** Code used when the platform in front of the service answered a 5xx page instead of the service (a crashed function, a gateway). */
export const PLATFORM_FAILURE = "PLATFORM_FAILURE";

export class StorefrontError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;

  constructor(init: { code: string; message: string; status: number | null; details?: Record<string, unknown> | undefined; requestId?: string | undefined }) {
    super(init.message);
    this.name = "StorefrontError";
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
  }

  /** The per-field problems a VALIDATION_ERROR carries in `details.fields`. */
  get fields(): FieldIssue[] {
    const fields = this.details?.fields;
    if (!Array.isArray(fields)) return [];
    return fields.flatMap((field: unknown) => {
      if (typeof field !== "object" || field === null) return [];
      const { path, message } = field as Record<string, unknown>;
      return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
    });
  }

  /**
   * Whether sending the identical request again (same Idempotency-Key) is the right reaction: the
   * request may or may not have been applied (no response), or the server asked us to come back.
   */
  get isTransient(): boolean {
    if (this.code === NETWORK_ERROR || this.code === PLATFORM_FAILURE || this.code === "IDEMPOTENCY_IN_PROGRESS" || this.code === "DEPENDENCY_UNAVAILABLE") return true;
    return this.status === 502 || this.status === 503 || this.status === 504;
  }

  get isConflict(): boolean {
    return this.code === "CART_CONFLICT";
  }
}

export function isStorefrontError(error: unknown): error is StorefrontError {
  return error instanceof StorefrontError;
}

/** Anything thrown, as a StorefrontError (programming errors keep their message for the console). */
export function asStorefrontError(error: unknown): StorefrontError {
  if (error instanceof StorefrontError) return error;
  return new StorefrontError({ code: "INTERNAL_ERROR", message: "Something went wrong. Please try again.", status: null, details: { cause: String(error) } });
}
