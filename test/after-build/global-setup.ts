import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import type { TestProject } from "vitest/node";
import setupPostgresTemplate, { ADMIN_URL } from "../postgres-template";

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

/** Refuses to run (rather than skip) without the build, Postgres or Redis; then makes the run's template database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, "../..");
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No production build (.next/BUILD_ID): run `npx next build` first; scripts/test.sh runs these tests right after it");
  }
  const postgresUrl = new URL(ADMIN_URL);
  if (!(await reachable(postgresUrl.hostname, Number(postgresUrl.port || 5432)))) {
    throw new Error(`The after-build tests need Postgres at ${postgresUrl.host} (TEST_POSTGRES_ADMIN_URL)`);
  }
  if (!(await reachable("127.0.0.1", 6379))) throw new Error("The after-build tests need Redis at 127.0.0.1:6379");
  return setupPostgresTemplate(project);
}
