/**
 * The benchmark's bare node:http control: the same service calls as the plain Next.js route
 * (bench/controls/operations.ts) behind nothing but node:http, and under /api/bench/floor-* the
 * floor (bench/controls/floor-sql.ts: the same operations as bare SQL over postgres.js, K0). Started by bench/run.ts with
 * `node --import tsx bench/controls/node-server.ts`; configured from the environment like the app
 * (DATABASE_URL etc.), plus PORT. Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage } from "node:http";
import { buildDeps } from "../../server/app/container";
import { parseEnv } from "../../server/env";
import { isFloorOperation, openFloorSql, runFloorOperation } from "./floor-sql";
import { runControlOperation, type ControlRequest } from "./operations";
import { CONTROL_PREFIX } from "./prefix";

const port = Number(process.env.PORT ?? 0);

function readBody(req: IncomingMessage): Promise<string> {
  if (req.method === "GET") return Promise.resolve("");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(", "));
  }
  return headers;
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const deps = await buildDeps(env);
  if (!env.DATABASE_URL) throw new Error("the node:http control needs DATABASE_URL (its floor talks to Postgres directly)");
  const floor = openFloorSql(env.DATABASE_URL);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    if (!url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    readBody(req)
      .then((bodyText) => {
        const request: ControlRequest = {
          method: req.method ?? "GET",
          operation: url.pathname.slice(CONTROL_PREFIX.length + 1),
          query: url.searchParams,
          headers: toHeaders(req),
          bodyText,
          clientIp: req.socket.remoteAddress ?? "unknown",
          origin: url.origin,
        };
        return isFloorOperation(request.operation) ? runFloorOperation(floor, request) : runControlOperation(deps, request);
      })
      .then((result) => {
        res.writeHead(result.status, result.headers).end(result.body);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    const listening = typeof address === "object" && address ? address.port : port;
    console.log(JSON.stringify({ msg: `bench node:http control listening on http://127.0.0.1:${listening}` }));
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      server.close();
      server.closeAllConnections();
      void Promise.all([deps.database.close(), floor.end({ timeout: 1 })]).finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}

main().catch((error: unknown) => {
  console.error("[bench node control] failed to start:", error);
  process.exit(1);
});
