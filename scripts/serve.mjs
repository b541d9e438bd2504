// `npm start`: serves the production build behind a plain node:http server that stamps each
// request with its TCP peer address (after deleting any client-sent copy of that header), so the
// rate limit's client address can never be chosen by the client. See server/http/client-ip.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import next from "next";
import appRouterHeaders from "next/dist/client/components/app-router-headers.js";

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

// The REST API is served straight from this server into the same handler Next's route uses
// (registered by instrumentation.ts), without Next's request pipeline: every method, path and
// escape under the prefix reaches our handler, so each answer is the contract's. The document
// (openapi.json) and everything else go to Next. REST_MOUNT=next sends the API through Next too.
const REST_PREFIX = "/api/v1/storefront";
const REST_HANDLER = Symbol.for("storefront-ordering-service.rest-handler");
const restMount = process.env.REST_MOUNT === "next" ? "next" : "direct";

// Decided on the path the handler reads (dot segments resolved, the fragment dropped, `\` read as `/`),
// which is also the path Next routes: `/api/v1/storefront/x/../openapi.json` is the document on both
// mounts, and nothing that resolves outside the prefix is answered as the API.
function isDirectRestPath(target) {
  if (restMount !== "direct" || typeof globalThis[REST_HANDLER] !== "function") return false;
  let path;
  try {
    path = new URL(`http://${listenAddress}${target}`).pathname;
  } catch {
    // Only a target that does not start with "/" (absolute-form, "*") gets here: Next answers it (a
    // 308 for absolute-form, on both mounts alike; the document lists it).
    return false;
  }
  // Next serves the document at its path with a trailing slash too; so must this mount. (An escaped spelling of
  // that path reaches the API's route through Next as well: a 404 envelope on both.)
  return (path === REST_PREFIX || path.startsWith(`${REST_PREFIX}/`)) && path !== `${REST_PREFIX}/openapi.json` && path !== `${REST_PREFIX}/openapi.json/`;
}

// Next fills in the x-forwarded-* headers a request arrives without, before any route reads it
// (base-server.js handleRequestImpl); so does this mount, so that both hand the handler the same
// request (behind CLIENT_IP_SOURCE=forwarded, a request that bypassed the proxies is known by its
// TCP peer on both, not as "unknown" on this one).
function withForwardedDefaults(req) {
  const forwardedProto = req.headers["x-forwarded-proto"];
  const https = forwardedProto ? forwardedProto === "https" : Boolean(req.socket.encrypted);
  req.headers["x-forwarded-host"] ??= req.headers.host ?? hostname;
  req.headers["x-forwarded-port"] ??= String(port);
  req.headers["x-forwarded-proto"] ??= https ? "https" : "http";
  if (req.socket.remoteAddress !== undefined) req.headers["x-forwarded-for"] ??= req.socket.remoteAddress;
}

// Next's request pipeline adds this Vary to every App Router answer, the REST route's included
// (base-server.js setVaryHeader, composed there from these same constants), before the route's own
// Vary. The direct mount sends the same, so that a cache in front keys both mounts' answers alike.
const { RSC_HEADER, NEXT_ROUTER_STATE_TREE_HEADER, NEXT_ROUTER_PREFETCH_HEADER, NEXT_ROUTER_SEGMENT_PREFETCH_HEADER } = appRouterHeaders;
const NEXT_APP_VARY = `${RSC_HEADER}, ${NEXT_ROUTER_STATE_TREE_HEADER}, ${NEXT_ROUTER_PREFETCH_HEADER}, ${NEXT_ROUTER_SEGMENT_PREFETCH_HEADER}`;
const varyAsNext = (ownVary) => (ownVary ? [NEXT_APP_VARY, ownVary] : NEXT_APP_VARY);

const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

function withMethod(request, method) {
  return new Proxy(request, {
    get(target, property) {
      if (property === "method") return method;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// The URL the handler sees is built as Next builds it (next-server.js attachRequestMeta): the scheme
// from X-Forwarded-Proto, then the address this server listens on, then the request's path. Never from
// the Host header, which a client may fill with a path of its own ("Host: x/api/v1/storefront/other?")
// and so choose the operation. The client's host is read from the header where a link needs it
// (server/http/request-origin.ts), on both mounts alike.
const requestScheme = (req) => (req.headers["x-forwarded-proto"]?.includes("https") ? "https" : "http");
// An IPv6 zone ("%eth0") is not part of a URL's host, and an empty HOSTNAME listens everywhere.
const urlHostname = hostname.split("%")[0] || "localhost";
const listenAddress = `${urlHostname.includes(":") ? `[${urlHostname}]` : urlHostname}:${port}`;

const requestId = () => `req_${randomBytes(12).toString("base64url")}`;

function envelope(status, code, message, extraHeaders = {}) {
  const id = requestId();
  const body = JSON.stringify({ code, message, requestId: id });
  return { status, body, headers: { "content-type": "application/json", "cache-control": "no-store", "x-request-id": id, "content-length": String(Buffer.byteLength(body)), vary: varyAsNext(undefined), ...extraHeaders } };
}

async function serveRest(req, res) {
  withForwardedDefaults(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const controller = new AbortController();
  // Aborted only when the client left before the answer was sent: an abort builds a DOMException, and
  // every completed response closes too.
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let answer;
  try {
    // fetch's Request refuses to carry TRACE, TRACK and CONNECT; the handler still has to answer them (405).
    const forbidden = FETCH_FORBIDDEN_METHODS.has(req.method);
    const request = new Request(`${requestScheme(req)}://${listenAddress}${req.url}`, {
      method: forbidden ? "GET" : req.method,
      headers,
      body: hasBody && !forbidden ? Readable.toWeb(req) : undefined,
      duplex: hasBody && !forbidden ? "half" : undefined,
      signal: controller.signal,
    });
    // The handler answers plain data (server/http/rest-answer.ts): headers as a fetch Response lists them.
    answer = await globalThis[REST_HANDLER](forbidden ? withMethod(request, req.method) : request);
  } catch (error) {
    // Only a request the fetch API cannot represent (a request target no URL can hold) gets here; the handler answers everything else itself.
    const failure = error instanceof TypeError ? envelope(400, "VALIDATION_ERROR", "The request cannot be read") : envelope(500, "INTERNAL_ERROR", "An unexpected error occurred. Quote the request id when reporting it.");
    if (failure.status === 500) console.error(JSON.stringify({ level: 50, msg: "REST mount failed", requestId: failure.headers["x-request-id"], err: String(error) }));
    res.writeHead(failure.status, failure.headers).end(req.method === "HEAD" ? undefined : failure.body);
    return;
  }
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader("vary", varyAsNext(answer.headers.vary));
  res.end(answer.body !== null && req.method !== "HEAD" ? answer.body : undefined);
}

const server = createServer((req, res) => {
  delete req.headers[PEER_ADDRESS_HEADER];
  const address = req.socket.remoteAddress ?? "unknown";
  req.headers[PEER_ADDRESS_HEADER] = address.startsWith("::ffff:") ? address.slice(7) : address;
  const at = req.headers["x-test-clock"];
  delete req.headers["x-test-clock"];
  const serve = isDirectRestPath(req.url ?? "/") ? () => serveRest(req, res) : () => handle(req, res);
  if (testClock && typeof at === "string") return void testClock.run(at, serve);
  void serve();
});

// What Node's HTTP parser refuses before any handler runs (headers over 16 KiB, a method it does not
// know, a malformed request line) is still answered in the error envelope with a request id.
server.on("clientError", (error, socket) => {
  if (!socket.writable || error.code === "ECONNRESET") return void socket.destroy();
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const answer = tooLarge
    ? envelope(431, "REQUEST_HEADERS_TOO_LARGE", "The request headers are too large (16 KiB in all)")
    : envelope(400, "VALIDATION_ERROR", "The request is not valid HTTP/1.1");
  const lines = Object.entries({ ...answer.headers, connection: "close" }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${answer.status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n${lines.join("")}\r\n${answer.body}`);
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
