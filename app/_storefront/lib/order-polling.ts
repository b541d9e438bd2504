import type { StorefrontError } from "./errors";
import type { OrderResult } from "./types";

/**
 * When to ask for the order result again. The server says how long to wait (pollAfterMs, also
 * sent as Retry-After); the client keeps to it within sane bounds, and backs off on failures that
 * are worth retrying at all.
 */
export const DEFAULT_POLL_MS = 1000;
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 10_000;

export function isSettled(result: OrderResult): boolean {
  return result.status === "completed" || result.status === "failed";
}

/** null: stop polling (completed or failed). */
export function nextPollDelay(result: OrderResult): number | null {
  if (isSettled(result)) return null;
  return Math.min(Math.max(result.pollAfterMs ?? DEFAULT_POLL_MS, MIN_POLL_MS), MAX_POLL_MS);
}

/** After the `failures`-th failure in a row: wait longer each time, or stop when retrying cannot help. */
export function retryDelay(error: StorefrontError, failures: number): number | null {
  const retryable = error.isTransient || error.code === "RATE_LIMITED" || error.status === 500;
  if (!retryable || failures > 6) return null;
  return Math.min(DEFAULT_POLL_MS * 2 ** (failures - 1), MAX_POLL_MS);
}
