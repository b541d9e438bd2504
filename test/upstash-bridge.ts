import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";

/**
 * Test-only stand-in for Upstash's REST endpoint, forwarding to a real Redis through ioredis, so the
 * `@upstash/redis` client (and @upstash/ratelimit on top of it) runs unmodified against the local server.
 *
 * Protocol (the subset @upstash/redis uses):
 * - `Authorization: Bearer <token>`, otherwise 401 `{ error }`.
 * - `POST /` with a JSON command array, e.g. `["set","k","v"]`: 200 `{ result }` or 400 `{ error }`.
 * - `POST /pipeline` and `POST /multi-exec` with an array of command arrays: 200 with an array of
 *   `{ result }` / `{ error }` (multi-exec runs the commands in one MULTI/EXEC transaction).
 * - With `Upstash-Encoding: base64`, every string in a result (also nested in arrays) is base64-encoded,
 *   except the status reply "OK". Integers and nulls are sent as they are.
 *
 * Upstash accepts the `#!lua flags=allow-key-locking` script shebang that Redis 7.0 rejects; like the real
 * service, the bridge accepts it: the flag is dropped before the script reaches Redis, and EVALSHA with
 * the hash of the original script is mapped to the hash of the script Redis actually stored.
 */
export type UpstashBridgeOptions = {
  /** Delay before each request is answered, to simulate a slow store. Change later with `setDelay`. */
  delayMs?: number;
  /** Redis the bridge forwards to. Default redis://127.0.0.1:6379. */
  redisUrl?: string;
};

export type UpstashBridgeRequest = { path: string; commands: string[][] };

export type UpstashBridge = {
  url: string;
  token: string;
  /** Current artificial delay in milliseconds; assignable. */
  delayMs: number;
  setDelay(ms: number): void;
  /** Every authorised request received, in order (path and the commands it carried). */
  readonly requests: UpstashBridgeRequest[];
  close(): Promise<void>;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type RedisReply = null | number | string | Buffer | RedisReply[];
type Entry = { result: Json } | { error: string };

class BadRequest extends Error {}

const SHEBANG = /^#!lua([^\n]*)\n/;
const UNSUPPORTED_FLAGS = new Set(["allow-key-locking"]);

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

export async function startUpstashBridge(options: UpstashBridgeOptions = {}): Promise<UpstashBridge> {
  const token = randomBytes(16).toString("hex");
  const redis = new Redis(options.redisUrl ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined);
  await redis.connect();

  /** Original script hash (as the client computes it) -> hash of the script Redis stored. */
  const rewrittenSha = new Map<string, string>();
  const pendingDelays = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const requests: UpstashBridgeRequest[] = [];
  let delayMs = options.delayMs ?? 0;
  let closing = false;

  function rewriteScript(script: string): string {
    const match = SHEBANG.exec(script);
    if (!match) return script;
    const rest = script.slice(match[0].length);
    const flagsPart = /flags=(\S*)/.exec(match[1] ?? "");
    if (!flagsPart) return script;
    const flags = (flagsPart[1] ?? "").split(",").filter((flag) => flag && !UNSUPPORTED_FLAGS.has(flag));
    const rewritten = `#!lua${flags.length ? ` flags=${flags.join(",")}` : ""}\n${rest}`;
    rewrittenSha.set(sha1(script), sha1(rewritten));
    return rewritten;
  }

  /** Adapts script commands to Redis 7.0, the way Upstash's server would accept them. */
  function adapt(command: string[]): string[] {
    const [name = "", ...args] = command;
    const lower = name.toLowerCase();
    if ((lower === "eval" || lower === "eval_ro") && args[0] !== undefined) return [name, rewriteScript(args[0]), ...args.slice(1)];
    if ((lower === "evalsha" || lower === "evalsha_ro") && args[0] !== undefined) {
      return [name, rewrittenSha.get(args[0].toLowerCase()) ?? args[0], ...args.slice(1)];
    }
    if (lower === "script" && args[0]?.toLowerCase() === "load" && args[1] !== undefined) return [name, "load", rewriteScript(args[1])];
    return command;
  }

  function encodeReply(reply: RedisReply, base64: boolean): Json {
    if (reply === null || typeof reply === "number") return reply;
    if (Array.isArray(reply)) return reply.map((element) => encodeReply(element, base64));
    const buffer = Buffer.isBuffer(reply) ? reply : Buffer.from(reply, "utf8");
    const text = buffer.toString("utf8");
    if (!base64 || text === "OK") return text;
    return buffer.toString("base64");
  }

  function errorMessage(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }

  async function run(command: string[], base64: boolean): Promise<Entry> {
    const [name, ...args] = adapt(command);
    if (!name) return { error: "ERR empty command" };
    try {
      const reply = (await redis.callBuffer(name, ...args)) as RedisReply;
      return { result: encodeReply(reply, base64) };
    } catch (error) {
      return { error: errorMessage(error) };
    }
  }

  async function runTransaction(commands: string[][], base64: boolean): Promise<Entry[]> {
    const multi = redis.multi();
    for (const command of commands) {
      const [name, ...args] = adapt(command);
      if (!name) throw new BadRequest("ERR empty command in transaction");
      multi.callBuffer(name, ...args);
    }
    try {
      const replies = (await multi.exec()) ?? [];
      return replies.map(([error, reply]) => (error ? { error: errorMessage(error) } : { result: encodeReply(reply as RedisReply, base64) }));
    } catch (error) {
      // EXECABORT: a command was rejected while queueing; Upstash answers the whole request with an error.
      throw new BadRequest(errorMessage(error));
    }
  }

  function toCommand(value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0) throw new BadRequest("ERR a command must be a non-empty JSON array");
    return value.map((part: unknown) => {
      if (typeof part === "string") return part;
      if (typeof part === "number" || typeof part === "boolean") return String(part);
      return JSON.stringify(part);
    });
  }

  function toCommands(value: unknown): string[][] {
    if (!Array.isArray(value) || value.length === 0) throw new BadRequest("ERR a pipeline must be a non-empty JSON array of commands");
    return value.map(toCommand);
  }

  async function readBody(request: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new BadRequest("ERR the request body is not valid JSON");
    }
  }

  function wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const pending = {
        resolve,
        timer: setTimeout(() => {
          pendingDelays.delete(pending);
          resolve();
        }, ms),
      };
      pendingDelays.add(pending);
    });
  }

  function send(response: ServerResponse, status: number, body: Json): void {
    if (response.headersSent || response.destroyed) return;
    const text = JSON.stringify(body);
    response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    response.end(text);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.authorization !== `Bearer ${token}`) {
      request.resume();
      return send(response, 401, { error: "Unauthorized" });
    }
    const path = new URL(request.url ?? "/", "http://bridge").pathname.replace(/\/+$/, "") || "/";
    if (request.method !== "POST" || !["/", "/pipeline", "/multi-exec"].includes(path)) {
      request.resume();
      return send(response, 404, { error: `ERR ${request.method ?? "?"} ${path} is not supported by the bridge` });
    }
    const base64 = String(request.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    try {
      const body = await readBody(request);
      const commands = path === "/" ? [toCommand(body)] : toCommands(body);
      requests.push({ path, commands });
      await wait(delayMs);
      if (closing) {
        response.destroy();
        return;
      }
      if (path === "/multi-exec") return send(response, 200, await runTransaction(commands, base64));
      if (path === "/pipeline") {
        const entries: Entry[] = [];
        for (const command of commands) entries.push(await run(command, base64));
        return send(response, 200, entries);
      }
      const entry = await run(commands[0] ?? [], base64);
      return send(response, "error" in entry ? 400 : 200, entry);
    } catch (error) {
      return send(response, error instanceof BadRequest ? 400 : 500, { error: errorMessage(error) });
    }
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get delayMs() {
      return delayMs;
    },
    set delayMs(ms: number) {
      delayMs = ms;
    },
    setDelay(ms: number) {
      delayMs = ms;
    },
    requests,
    async close() {
      closing = true;
      for (const pending of pendingDelays) {
        clearTimeout(pending.timer);
        pending.resolve();
      }
      pendingDelays.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
