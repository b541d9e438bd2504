// `npm start`: serves the production build behind a plain node:http server that stamps each
// request with its TCP peer address (after deleting any client-sent copy of that header), so the
// rate limit's client address can never be chosen by the client. See server/http/client-ip.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer } from "node:http";
import next from "next";

const PEER_ADDRESS_HEADER = "x-storefront-peer-address";
// Tells server/http/client-ip.ts (same process) that this server overwrites the header on every
// request, so it may be trusted; without this declaration (plain `next start`) it never is.
globalThis[Symbol.for("storefront-ordering-service.peerAddressStamper")] = true;
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

// Tests of the production build only (server/env.ts refuses it on Vercel): each request runs at the
// time its X-Test-Clock header names, read by server/app/test-clock.ts through this registered symbol.
const testClock = process.env.TEST_CLOCK_CONTROL === "true" ? new AsyncLocalStorage() : undefined;
if (testClock) globalThis[Symbol.for("storefront-ordering-service.test-clock")] = testClock;

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

// instrumentation.ts's register() (dependencies: database, rate limiter) finishes after prepare()
// resolves, and Next.js only logs its failure and would serve anyway. So listen once it says
// "ready", and exit when it says "failed" (an invalid configuration): a process that cannot work
// must not take traffic. Its outcome is the Symbol.for value below.
const STARTUP = Symbol.for("storefront-ordering-service.startup");
const startupDeadline = Date.now() + 120_000;
while (globalThis[STARTUP] === undefined && Date.now() < startupDeadline) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
if (globalThis[STARTUP] === "failed") {
  console.error(JSON.stringify({ level: 60, msg: "start-up failed (see the error above): not serving" }));
  process.exit(1);
}
if (globalThis[STARTUP] !== "ready") {
  console.error(JSON.stringify({ level: 40, msg: "start-up did not report within 120 s: serving anyway; see /api/ready" }));
}

const server = createServer((req, res) => {
  delete req.headers[PEER_ADDRESS_HEADER];
  const address = req.socket.remoteAddress ?? "unknown";
  req.headers[PEER_ADDRESS_HEADER] = address.startsWith("::ffff:") ? address.slice(7) : address;
  const at = req.headers["x-test-clock"];
  delete req.headers["x-test-clock"];
  if (testClock && typeof at === "string") return void testClock.run(at, () => handle(req, res));
  void handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: 30, msg: `storefront ordering service listening on http://${hostname}:${port}` }));
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
