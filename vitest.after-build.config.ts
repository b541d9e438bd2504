import { defineConfig } from "vitest/config";

/**
 * Tests of the production build (`next build` output, served by `node scripts/serve.mjs`): several
 * server processes against one Postgres and one Redis, and start-up with an invalid deployment
 * configuration. scripts/test.sh runs them right after `next build`; they need Postgres at
 * 127.0.0.1:5432 (TEST_POSTGRES_ADMIN_URL) and Redis at 127.0.0.1:6379 and fail, not skip, without.
 */
export default defineConfig({
  resolve: { alias: { "@": new URL(".", import.meta.url).pathname } },
  test: {
    name: "after-build",
    include: ["test/after-build/**/*.test.ts"],
    globalSetup: ["test/after-build/global-setup.ts"],
    setupFiles: ["test/log-capture.ts"],
    env: { TEST_DATABASE: "postgres" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The servers are the load; one test file at a time on a 2-core machine.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
