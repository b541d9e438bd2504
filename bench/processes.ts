import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/**
 * Child processes of the benchmark (the app, the node:http control, a build). Each runs in its
 * own process group so that stopping it also stops anything it spawned; every child still alive
 * when the benchmark exits, fails or is interrupted is killed.
 */
export type Child = {
  name: string;
  process: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** The last lines the process printed, for error messages. */
  output: () => string;
  stop: () => Promise<void>;
};

const running = new Set<Child>();
const OUTPUT_LINES = 40;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, options: { echo?: boolean } = {}): Child {
  const proc = spawn(command, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    if (options.echo) process.stderr.write(chunk);
    lines.push(...chunk.toString("utf8").split("\n").filter((line) => line.trim() !== ""));
    if (lines.length > OUTPUT_LINES) lines.splice(0, lines.length - OUTPUT_LINES);
  };
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);
  const exited = new Promise<number | string>((resolve) => {
    proc.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    proc.once("error", (error) => resolve(error.message));
  });
  const child: Child = {
    name,
    process: proc,
    exited,
    output: () => lines.join("\n"),
    stop: async () => {
      killGroup(proc, "SIGTERM");
      const forced = setTimeout(() => killGroup(proc, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(forced);
      running.delete(child);
    },
  };
  running.add(child);
  void exited.then(() => running.delete(child));
  return child;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

// Last resort when the process exits without running the async cleanup (e.g. process.exit).
process.once("exit", () => {
  for (const child of running) killGroup(child.process, "SIGKILL");
});

/** Runs a command to completion, its output echoed on stderr; rejects on a non-zero exit. */
export async function runToCompletion(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = startChild(name, command, args, env, { echo: true });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${name} failed (${code})`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it answers true; fails early if the child exits, or after `timeoutMs`. */
export async function waitUntilReady(child: Child, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  let exitedWith: number | string | undefined;
  void child.exited.then((code) => (exitedWith = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) throw new Error(`${child.name} exited (${exitedWith}) before it was ready:\n${child.output()}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${child.name} was not ready after ${timeoutMs} ms:\n${child.output()}`);
}
