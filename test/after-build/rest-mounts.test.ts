import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ownDatabase, startServer, waitUntilReady, type Server } from "./servers";

/**
 * One REST handler, two mounts: `npm start` serves the API from its own node:http server (direct,
 * the default) or through Next's route (REST_MOUNT=next, what Vercel runs). Over one database, the
 * same requests get the same status, headers and body from both, but for the request id (and the
 * Date and connection headers the servers write themselves).
 */
const ALLOWED_ORIGIN = "https://shop.example.com";
let direct: Server;
let viaNext: Server;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;

beforeAll(async () => {
  database = await ownDatabase("mounts", inject("postgresRun"));
  // Behind proxies (CLIENT_IP_SOURCE=forwarded): both mounts must also know a request that arrives without
  // X-Forwarded-For by the same address (Next fills the header in from the socket; so does the direct mount).
  const env = {
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    RATE_LIMIT_MAX: "1000000",
    RESPONSE_CACHE_TTL_MS: "0",
    CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    SIMULATED_PAYMENTS: "true",
    CLIENT_IP_SOURCE: "forwarded",
    TEST_CLOCK_CONTROL: "true",
  };
  [direct, viaNext] = await Promise.all([startServer("mount-direct", env), startServer("mount-next", { ...env, REST_MOUNT: "next" })]);
  await Promise.all([waitUntilReady(direct), waitUntilReady(viaNext)]);
});

afterAll(async () => {
  await Promise.all([direct?.stop(), viaNext?.stop()]);
  await database?.drop();
});

const PREFIX = "/api/v1/storefront";
const LOCATION = "loc_harbor_kitchen_downtown";
/**
 * Headers each server writes for itself (the id, the clock, the connection, each server's own
 * rate-limit count) and the framing of the same bytes (a length or chunks); everything else must be
 * identical, Vary included (the direct mount sends the tokens Next adds to every App Router answer).
 */
const OWN_HEADERS = new Set(["x-request-id", "date", "connection", "keep-alive", "x-ratelimit-remaining", "x-ratelimit-reset", "content-length", "transfer-encoding"]);

type Answer = { status: number; headers: Record<string, string>; body: string };

/**
 * Every request of this file runs at one instant (X-Test-Clock): a menu names the minute it was read
 * for (orderTime), so two reads a moment apart across a minute's turn would differ on any server.
 */
const AT = { "x-test-clock": "2026-12-02T17:00:00.000Z" };

/** A GET over node:http, which sends the Host header given (fetch always sends the URL's). */
function withHost(server: Server, path: string, headers: Record<string, string>): Promise<{ status: number; etag: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}${PREFIX}${path}`);
    const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { ...AT, ...headers } }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** A GET of a request target sent as written: fetch would resolve dot segments and drop a fragment before sending. */
function rawGet(server: Server, target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const request = httpRequest({ host: url.hostname, port: url.port, path: target, headers: AT }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => {
        const requestId = String(response.headers["x-request-id"] ?? "(none)");
        const headers = Object.fromEntries(Object.entries(response.headers).flatMap(([name, value]) => (OWN_HEADERS.has(name) || value === undefined ? [] : [[name, String(value)]])));
        resolve({ status: response.statusCode ?? 0, headers, body: body.replaceAll(requestId, "<request id>") });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

async function answer(server: Server, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${PREFIX}${path}`, { ...init, headers: { "accept-encoding": "gzip, br", ...AT, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  const requestId = response.headers.get("x-request-id") ?? "(none)";
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !OWN_HEADERS.has(name)));
  return { status: response.status, headers, body: text.replaceAll(requestId, "<request id>") };
}

async function same(path: string, init?: () => RequestInit): Promise<Answer> {
  const [first, second] = [await answer(direct, path, init?.()), await answer(viaNext, path, init?.())];
  expect(second, path).toEqual(first);
  expect(first.headers["x-request-id"]).toBeUndefined();
  return first;
}

describe("the direct and the Next mount of the REST API", () => {
  it("answer anonymous reads, conditional reads and HEAD byte for byte alike", async () => {
    const menu = await same(`/locations/${LOCATION}/menus`);
    expect(menu.status).toBe(200);
    // Read at the file's instant (AT), noon in New York, on both mounts.
    expect(JSON.parse(menu.body)).toMatchObject({ orderDate: "2026-12-02", orderTime: "12:00" });
    await same(`/locations/${LOCATION}/products?limit=3`);
    await same(`/locations/${LOCATION}/menus`, () => ({ headers: { "if-none-match": menu.headers.etag ?? "" } }));
    await same(`/locations/${LOCATION}/menus`, () => ({ method: "HEAD" }));
    for (const path of ["/openapi.json", "/openapi.json/"]) expect((await same(path)).status, path).toBe(200);
  });

  it("take a request target where it resolves, as Next routes it: dot segments, a fragment, an escaped spelling of the document's path", async () => {
    for (const [target, status] of [
      [`${PREFIX}/x/../openapi.json`, 200],
      [`${PREFIX}/./openapi.json`, 200],
      [`${PREFIX}/openapi.json/.`, 200],
      [`${PREFIX}/openapi.json#top`, 200],
      [`${PREFIX}/%2e%2e/storefront/openapi.json`, 200],
      // Next matches its own route (the document) on the path as sent, so this reaches the API's route there too.
      [`${PREFIX}/openapi%2Ejson`, 404],
      [`${PREFIX}/openapi%2Ejson/`, 404],
      // Outside the prefix once resolved: Next's own route, on both mounts.
      [`${PREFIX}/../../health`, 200],
      // Absolute-form (RFC 9112 §3.2.2): Next redirects it, on both mounts (the document lists it).
      [`http://shop.example.com${PREFIX}/locations/${LOCATION}/menus`, 308],
      [`${PREFIX}/x/../locations/${LOCATION}/menus`, 200],
      [`${PREFIX}/x/../no/such/path`, 404],
    ] as const) {
      const [first, second] = [await rawGet(direct, target), await rawGet(viaNext, target)];
      expect([first.status, second.status], target).toEqual([status, status]);
      expect(second, target).toEqual(first);
    }
  });

  it("know a caller by the same address on both mounts when no proxy wrote X-Forwarded-For: a retry on the other mount replays", async () => {
    const init = { method: "POST", headers: { ...AT, "content-type": "application/json", "Idempotency-Key": `mounts-${randomBytes(8).toString("hex")}` }, body: JSON.stringify({ fulfillmentMethod: "takeout" }) };
    const first = await fetch(`${direct.url}${PREFIX}/locations/${LOCATION}/ordering-sessions`, init);
    const retried = await fetch(`${viaNext.url}${PREFIX}/locations/${LOCATION}/ordering-sessions`, init);
    expect([first.status, retried.status]).toEqual([201, 201]);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    const [created, replayed] = (await Promise.all([first.json(), retried.json()])) as { cart: { id: string } }[];
    expect(replayed?.cart.id).toBe(created?.cart.id);
  });

  it("answer errors alike: unknown path, wrong method, invalid parameter, missing credential, malformed body", async () => {
    expect((await same("/no/such/path")).status).toBe(404);
    expect((await same(`/locations/${LOCATION}/menus`, () => ({ method: "PUT" }))).status).toBe(405);
    expect((await same("/locations/a%20b/menus")).status).toBe(400);
    expect((await same(`/locations/${LOCATION}/carts/cart_missing`)).status).toBe(401);
    const malformed = () => ({ method: "POST", headers: { "content-type": "application/json", "Idempotency-Key": "mounts-malformed-0001" }, body: "{" });
    expect((await same(`/locations/${LOCATION}/ordering-sessions`, malformed)).status).toBe(400);
  });

  it("answer CORS alike: preflights and cross-origin reads, allowed or not, with the same Vary", async () => {
    const preflight = (origin: string) => () => ({ method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, idempotency-key" } });
    const allowed = await same(`/locations/${LOCATION}/ordering-sessions`, preflight(ALLOWED_ORIGIN));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.vary).toMatch(/Origin, Access-Control-Request-Method, Access-Control-Request-Headers$/);
    expect((await same(`/locations/${LOCATION}/ordering-sessions`, preflight("https://elsewhere.example.com"))).status).toBe(403);
    const read = await same(`/locations/${LOCATION}/menus`, () => ({ headers: { origin: ALLOWED_ORIGIN } }));
    expect(read.headers["access-control-allow-origin"]).toBe(ALLOWED_ORIGIN);
    expect(read.headers.vary).toMatch(/Origin$/);
    expect((await same(`/locations/${LOCATION}/menus`, () => ({ headers: { origin: "https://elsewhere.example.com" } }))).headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("link to the host the client addressed, with the scheme X-Forwarded-Proto names, not the address the server listens on", async () => {
    const read = (server: Server, headers: Record<string, string>) => withHost(server, `/locations/${LOCATION}/redirect`, headers);
    for (const [headers, url] of [
      [{ host: "shop.example.com" }, "http://shop.example.com/l/harbor-kitchen-downtown"],
      [{ host: "shop.example.com:8443", "x-forwarded-proto": "https" }, "https://shop.example.com:8443/l/harbor-kitchen-downtown"],
    ] as const) {
      const [first, second] = [await read(direct, headers), await read(viaNext, headers)];
      expect(second, JSON.stringify(headers)).toEqual(first);
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body)).toMatchObject({ url });
    }
  });

  it("run the operation the path names, whatever the Host header holds", async () => {
    for (const host of [`localhost/api/v1/storefront/locations/loc_dune_grill_marina/gratuity?`, "shop.example.com, evil.example.com", "x@evil.example.com"]) {
      const [first, second] = [await withHost(direct, `/locations/${LOCATION}/menus`, { host }), await withHost(viaNext, `/locations/${LOCATION}/menus`, { host })];
      expect(second, host).toEqual(first);
      expect(first.status, host).toBe(200);
      expect(JSON.parse(first.body), host).toHaveProperty("menus");
    }
  });

  it("read the same cart alike, whichever mount created it", async () => {
    const created = await fetch(`${direct.url}${PREFIX}/locations/${LOCATION}/ordering-sessions`, {
      method: "POST",
      headers: { ...AT, "content-type": "application/json", "Idempotency-Key": `mounts-${randomBytes(8).toString("hex")}` },
      body: JSON.stringify({ fulfillmentMethod: "takeout" }),
    });
    const { cart, cartAccessToken } = (await created.json()) as { cart: { id: string }; cartAccessToken: string };
    const read = await same(`/locations/${LOCATION}/carts/${cart.id}`, () => ({ headers: { "X-Cart-Token": cartAccessToken } }));
    expect(read.status).toBe(200);
    expect(read.headers["cache-control"]).toBe("private, no-store");
  });
});
