import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * Runs one of the project's command-line scripts (`db/migrate-cli.ts`, `server/jobs/cli.ts`) under tsx,
 * as `npm run ...` would, with exactly `env` (plus PATH and HOME): its exit code and output. A CLI run
 * by hand has no NODE_ENV, which the service reads as development: pass "development" for that.
 */
export function runCli(script: string, args: string[], env: Record<string, string> & { NODE_ENV: NodeJS.ProcessEnv["NODE_ENV"] }): Promise<{ code: number | null; output: string }> {
  const childEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script, ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
