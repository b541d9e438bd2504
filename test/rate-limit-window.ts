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
