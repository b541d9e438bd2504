import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import postgres from "postgres";
import { ADMIN_URL, databaseUrl } from "../postgres-template";

/** Production-build servers (`node scripts/serve.mjs`, i.e. `npm start`) for the after-build tests. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

export type Server = {
  name: string;
  url: string;
  process: ChildProcess;
  /** Everything it printed so far (its JSON log lines). */
  output: () => string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts one server with exactly `env` (plus PATH/HOME), never the test process's environment.
 * Its output is kept, and also written to TEST_LOG_DIR when set so the run's log scan covers it.
 */
export async function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/serve.mjs")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", AUTH_SECRET: "after-build-test-secret-not-for-deployments", HOSTNAME: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const logDir = process.env.TEST_LOG_DIR;
  const fd = logDir ? openSync(path.join(logDir, `server-${name}-${randomBytes(3).toString("hex")}.ndjson`), "a") : undefined;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (fd !== undefined) writeSync(fd, chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      if (fd !== undefined) closeSync(fd);
      resolve(code);
    });
  });
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Polls GET /api/ready until it answers 200; fails with the server's output if it exits or takes too long. */
export async function waitUntilReady(server: Server, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`${server.url}/api/ready`, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${server.name} did not become ready:\n${server.output().slice(-4000)}`);
}

/**
 * A database of the run's own, cloned from its migrated template (test/postgres-template.ts), for the
 * servers of one after-build test file; `drop` removes it (also when its servers are still up).
 */
export async function ownDatabase(name: string, run: { template: string; prefix: string }): Promise<{ url: string; drop: () => Promise<void> }> {
  const database = `${run.prefix}_${name}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${database} template ${run.template}`);
  await admin.end();
  return {
    url: databaseUrl(database),
    drop: async () => {
      const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
      await cleanup.unsafe(`drop database if exists ${database} with (force)`);
      await cleanup.end();
    },
  };
}
