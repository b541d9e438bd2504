import { defineConfig } from "vitest/config";

/**
 * Tests of the production build (`next build` output, served by `node scripts/serve.mjs`, i.e.
 * `npm start`). scripts/test.sh runs them right after `next build`; they need Postgres at
 * 127.0.0.1:5432 (TEST_POSTGRES_ADMIN_URL) and Redis at 127.0.0.1:6379 and fail, not skip, without.
 *
 * - after-build: several server processes against one Postgres and one Redis, and start-up with an
 *   invalid deployment configuration.
 * - production-build: integration test files run unchanged through HTTP against `npm start`
 *   (test/harness.ts, TEST_TARGET=production): one server per test app, on its own database. The
 *   bundle is not the source (it can hold two copies of a module, drop a file, reorder start-up), so
 *   every route kind, every checkout, webhook and job test is shown here too. A file is listed here
 *   unless it needs the in-process app (dependency overrides such as a crashing processor, a fault
 *   proxy in front of the database, a distinct client address per request, a Host header of its own,
 *   which fetch does not send); those stay in-process.
 */
export const productionBuildFiles = [
  "test/integration/smoke.test.ts",
  "test/integration/rules.test.ts",
  "test/integration/catalog.test.ts",
  "test/integration/carts.test.ts",
  "test/integration/checkout.test.ts",
  "test/integration/checkout-stripe.test.ts",
  "test/integration/browser-confirmed-settlement.test.ts",
  "test/integration/order-before-capture.test.ts",
  "test/integration/simulated-processor.test.ts",
  "test/integration/jobs.test.ts",
  "test/integration/revalidation.test.ts",
  "test/integration/customer-auth.test.ts",
  "test/integration/customer-credential-rules.test.ts",
  "test/integration/customer-data.test.ts",
  "test/integration/customer-rpc.test.ts",
  "test/integration/hostile-bodies.test.ts",
  "test/integration/hostile-cursors.test.ts",
  "test/integration/amount-bounds.test.ts",
  "test/integration/prefix-edges.test.ts",
  "test/integration/generated-client.test.ts",
  "test/integration/prefix-fuzz.test.ts",
  "test/integration/closed-location.test.ts",
  "test/integration/unpublished-location.test.ts",
  "test/integration/idempotency-scope.test.ts",
  "test/integration/answer-with-commit.test.ts",
  "test/integration/compare-and-set-lost.pg.test.ts",
  "test/integration/logout-race.pg.test.ts",
  "test/integration/replay-while-key-locked.pg.test.ts",
  "test/integration/phone-verification-race.pg.test.ts",
  "test/integration/otp-code-reuse.test.ts",
  "test/integration/fuzz.test.ts",
  "test/integration/menu-hours-at-checkout.test.ts",
  "test/integration/withdrawn-discount.test.ts",
  "test/integration/path-members.test.ts",
  "test/integration/service-details.test.ts",
  "test/integration/rendered-carts.test.ts",
  "test/integration/mutation-answers.test.ts",
];

export const nextMountFiles = ["test/integration/rules.test.ts", "test/integration/prefix-edges.test.ts", "test/integration/checkout.test.ts", "test/integration/smoke.test.ts", "test/integration/rendered-carts.test.ts", "test/integration/mutation-answers.test.ts"];

const alias = { "@": new URL(".", import.meta.url).pathname };

export default defineConfig({
  resolve: { alias },
  test: {
    // The servers are the load; one test file at a time on a 2-core machine.
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "after-build",
          include: ["test/after-build/**/*.test.ts"],
          globalSetup: ["test/after-build/global-setup.ts"],
          setupFiles: ["test/log-capture.ts"],
          env: { TEST_DATABASE: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "production-build",
          include: productionBuildFiles,
          globalSetup: ["test/after-build/global-setup.ts"],
          setupFiles: ["test/log-capture.ts"],
          env: { TEST_DATABASE: "postgres", TEST_TARGET: "production" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The same handler through Next's route (what Vercel runs), for a share chosen by kind:
        // every rule of every route kind, the prefix's edges, and a checkout end to end.
        resolve: { alias },
        test: {
          name: "production-build-next-mount",
          include: nextMountFiles,
          globalSetup: ["test/after-build/global-setup.ts"],
          setupFiles: ["test/log-capture.ts"],
          env: { TEST_DATABASE: "postgres", TEST_TARGET: "production", TEST_REST_MOUNT: "next" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
