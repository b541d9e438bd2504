/**
 * Warms the process at start-up: opening (and on first run, migrating and seeding) the embedded
 * PGlite takes seconds, which belongs here rather than in the first customer's request. An invalid
 * configuration (e.g. Vercel without DATABASE_URL) fails here, before any request is served.
 */
/** Read by scripts/serve.mjs (same process, by this Symbol.for name): "ready" or "failed" once register() is done. */
const STARTUP = Symbol.for("storefront-ordering-service.startup");
/** The REST handler, answering plain data (server/http/rest-answer.ts), for scripts/serve.mjs to mount on its own server beside Next's route (same process). */
const REST_HANDLER = Symbol.for("storefront-ordering-service.rest-handler");

export async function register(): Promise<void> {
  // NEXT_RUNTIME is set by Next.js itself, not deployment configuration, so it is not part of server/env.ts.
  // eslint-disable-next-line no-restricted-syntax
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppDeps } = await import("./server/app/container");
  const { logger } = await import("./server/log");
  try {
    const deps = await getAppDeps();
    const { peerAddressStamped, resolveClientIpSource } = await import("./server/http/client-ip");
    for (const warning of deps.env.warnings) logger.warn({ warning }, "configuration");
    if (resolveClientIpSource(deps.env) === "socket" && !peerAddressStamped() && deps.env.NODE_ENV === "production") {
      logger.warn("CLIENT_IP_SOURCE resolves to socket but scripts/serve.mjs is not in front (use `npm start`, or CLIENT_IP_SOURCE=forwarded behind a proxy): every client shares one rate-limit bucket");
    }
    logger.info({ database: deps.database.kind, rateLimiter: deps.rateLimiter.name, payments: deps.payments.name }, "dependencies ready");
    const { createRestAnswerer } = await import("./server/http/rest-handler");
    (globalThis as Record<symbol, unknown>)[REST_HANDLER] = createRestAnswerer(getAppDeps);
    (globalThis as Record<symbol, unknown>)[STARTUP] = "ready";
  } catch (error) {
    // Configuration errors (e.g. PGlite on Vercel) must stop the deployment at start-up. Next.js
    // only logs a failed register() and serves anyway, so scripts/serve.mjs (`npm start`) waits for
    // this outcome before it listens, and exits on "failed"; elsewhere /api/ready answers 503.
    logger.fatal({ err: error }, "start-up failed");
    (globalThis as Record<symbol, unknown>)[STARTUP] = "failed";
    throw error;
  }
}
