/**
 * Warms the process at start-up: opening (and on first run, migrating and seeding) the embedded
 * PGlite takes seconds, which belongs here rather than in the first customer's request.
 */
export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself, not deployment configuration, so it is not part of server/env.ts.
  // eslint-disable-next-line no-restricted-syntax
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppDeps } = await import("./server/app/container");
  const { logger } = await import("./server/log");
  try {
    const deps = await getAppDeps();
    logger.info({ database: deps.database.kind, rateLimiter: deps.rateLimiter.name, payments: deps.payments.name }, "dependencies ready");
  } catch (error) {
    // Configuration errors (e.g. PGlite on Vercel) must stop the deployment at start-up.
    logger.fatal({ err: error }, "start-up failed");
    throw error;
  }
}
