/**
 * The rate limiter's windows are aligned to the epoch (server/integrations/rate-limit/memory.ts and
 * @upstash/ratelimit's sliding window). Just past a window's end, the previous window's count is
 * weighted down and rounded down (3 becomes 2), so a test that counts requests up to the limit
 * across that instant sees one more allowed than it counted. A test that counts against real time
 * first waits out a window edge closer than `marginMs`, so that its counts fall in one window.
 */
export async function awayFromWindowEdge(windowSeconds: number, marginMs = 5_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Resolves once `Date.now()` has reached `epochMs`. A timer alone can end a millisecond or more
 * before the wall-clock instant it was computed for: Node counts it from the event loop's cached
 * monotonic time, in whole milliseconds, which trails the real time by however long the loop's
 * current turn has run (a loaded test worker's turns run long). A request meant for the first
 * millisecond of a window then lands in the previous one.
 */
export async function untilWallClock(epochMs: number): Promise<void> {
  while (Date.now() < epochMs) await new Promise((resolve) => setTimeout(resolve, Math.max(1, epochMs - Date.now())));
}
