import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, dependencyUnavailable, isAppError, internalError, validationError, type FieldIssue } from "./errors";

/** Connection-level failures of Postgres or its driver: the database, not the request, is at fault. */
const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
const UNAVAILABLE_DRIVER_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  // Our own deadlines around the driver (db/bounded-client.ts): pool exhausted, server not answering.
  "DATABASE_QUEUE_TIMEOUT",
  "DATABASE_UNRESPONSIVE",
  "DATABASE_TRANSACTION_ABANDONED",
]);
/** SQLSTATEs: 08xxx connection exceptions, admin shutdown / terminated backend, too many connections, timeouts. */
const UNAVAILABLE_SQLSTATES = /^(08...|57P01|57P02|57P03|53300|57014|55P03|40P01)$/;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function isDependencyFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_DRIVER_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code);
}

export function zodIssuesToFields(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)",
    message: issue.message,
  }));
}

/**
 * Turns anything thrown while serving a request into the one AppError the client will see.
 * Unknown errors become INTERNAL_ERROR and carry no internal detail.
 */
export function toAppError(error: unknown): AppError {
  for (const candidate of causes(error)) {
    if (isAppError(candidate)) return candidate;
  }
  // Only input validation is the client's fault; a ZodError from output validation is our bug.
  if (error instanceof TRPCError && error.code === "BAD_REQUEST" && error.cause instanceof ZodError) {
    return validationError("The request is not valid", zodIssuesToFields(error.cause));
  }
  for (const candidate of causes(error)) {
    if (isDependencyFailure(candidate)) return dependencyUnavailable("The database", error);
  }
  if (error instanceof TRPCError) {
    switch (error.code) {
      case "NOT_FOUND":
        return new AppError("NOT_FOUND", "No operation exists at this path and method");
      case "PARSE_ERROR":
        return validationError("The request body is not valid JSON");
      case "PAYLOAD_TOO_LARGE":
        return validationError("The request body is too large");
      case "UNSUPPORTED_MEDIA_TYPE":
        return validationError("The request body must be JSON (Content-Type: application/json)");
      case "BAD_REQUEST":
        return validationError("The request is not valid");
      case "METHOD_NOT_SUPPORTED":
        return new AppError("NOT_FOUND", "No operation exists at this path and method");
      default:
        return internalError(error);
    }
  }
  return internalError(error);
}
