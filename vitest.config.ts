import { connect } from "node:net";
import { defineConfig } from "vitest/config";
import type { TestProjectInlineConfiguration } from "vitest/config";

/** Integration tests run on PGlite always, and on the real Postgres whenever it answers. */
function postgresReachable(): Promise<boolean> {
  const url = new URL(process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432) });
    socket.setTimeout(1000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

export default defineConfig(async () => {
  const withPostgres = await postgresReachable();
  if (!withPostgres) console.warn("[vitest] Postgres is not reachable: running integration tests on PGlite only");
  const alias = { "@": new URL(".", import.meta.url).pathname };
  const projects: TestProjectInlineConfiguration[] = [
    { resolve: { alias }, test: { name: "unit", include: ["server/**/*.test.ts", "db/**/*.test.ts", "app/**/*.test.ts", "bench/**/*.test.ts"], environment: "node" } },
    {
      resolve: { alias },
      test: {
        name: "integration-pglite",
        include: ["test/integration/**/*.test.ts"],
        exclude: ["test/integration/**/*.pg.test.ts"],
        env: { TEST_DATABASE: "pglite" },
        // Captures the service's logs for the secret scan (test/log-capture.ts); inert without TEST_LOG_DIR.
        setupFiles: ["test/log-capture.ts"],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    },
  ];
  if (withPostgres) {
    projects.push({
      resolve: { alias },
      test: {
        name: "integration-postgres",
        include: ["test/integration/**/*.test.ts"],
        env: { TEST_DATABASE: "postgres" },
        globalSetup: ["test/postgres-template.ts"],
        setupFiles: ["test/log-capture.ts"],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    });
  }
  return { test: { projects, pool: "forks", maxWorkers: 2 } };
});
