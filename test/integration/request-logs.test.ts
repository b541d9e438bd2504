import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRpcHandler } from "../../server/http/rpc-handler";
import { logger, redirectLogs } from "../../server/log";
import { chowderCup } from "../checkout-helpers";
import { findLeaks, secretTokens } from "../log-scan";
import { createTestApp, HARBOR, idemKey, mutate, type TestApp } from "../harness";

/**
 * One structured line per request from the REST and RPC handlers: request id, route template and
 * procedure (never the raw path), status, latency and the kind of credential presented, and
 * nothing a client could use.
 */
type Line = { level: number; msg: string; requestId: string; transport: string; method: string; route: string; procedure: string | null; status: number; latencyMs: number; principal: string };

let app: TestApp;
let captured = "";
let restore: Parameters<typeof redirectLogs>[0];
let previousLevel: string;

beforeAll(async () => {
  app = await createTestApp();
  previousLevel = logger.level;
  logger.level = "info";
  // Keep feeding the run-wide capture (test/log-capture.ts) too, so these lines are scanned with the rest.
  restore = redirectLogs({
    write: (line: string) => {
      captured += line;
      return restore.write(line);
    },
  });
});
afterAll(async () => {
  redirectLogs(restore);
  logger.level = previousLevel;
  await app.close();
});

function requestLines(): Line[] {
  return captured
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === "request");
}

function lineFor(requestId: string | null): Line {
  const matches = requestLines().filter((line) => line.requestId === requestId);
  expect(matches, `log lines for ${requestId}`).toHaveLength(1);
  return matches[0] as Line;
}

describe("request logs", () => {
  it("names REST requests by route template and procedure, with status, latency and principal kind", async () => {
    const before = requestLines().length;
    const created = await app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } });
    expect(created.status).toBe(201);
    const session = created.body as { cart: { id: string; revision: number }; cartAccessToken: string };
    const cart = { cartId: session.cart.id, token: session.cartAccessToken, etag: created.headers.get("etag") ?? "", cart: session.cart, locationId: HARBOR.locationId };
    const added = await mutate(app, cart, "POST", "/items", chowderCup);
    expect(added.status).toBe(200);
    const forged = await app.call("GET", `/locations/${HARBOR.locationId}/carts/${cart.cartId}`, { headers: { Authorization: "Bearer not-a-real-customer-token-123" } });
    const unknown = await app.call("GET", `/locations/${HARBOR.locationId}/no-such-thing/ct_looks_like_a_token_0123456789`, { skipResponseValidation: true });

    expect(requestLines().length - before).toBe(4);
    const create = lineFor(created.headers.get("x-request-id"));
    expect(create).toMatchObject({ level: 30, transport: "rest", method: "POST", route: "/locations/{locationId}/ordering-sessions", procedure: "carts.createOrderingSession", kind: "anonymousWrite", status: 201, principal: "anonymous" });
    expect(create.latencyMs).toBeGreaterThanOrEqual(0);
    expect(lineFor(added.headers.get("x-request-id"))).toMatchObject({ route: "/locations/{locationId}/carts/{cartId}/items", procedure: "carts.addItem", kind: "cartMutation", status: 200, principal: "cart" });
    expect(lineFor(forged.headers.get("x-request-id"))).toMatchObject({ route: "/locations/{locationId}/carts/{cartId}", procedure: "carts.get", kind: "cartRead", status: 401, principal: "customer" });
    expect(lineFor(unknown.headers.get("x-request-id"))).toMatchObject({ route: "(unmatched)", procedure: null, kind: null, status: 404 });

    // No id from the path, and no credential, in any line.
    expect(captured).not.toContain(cart.cartId);
    expect(captured).not.toContain("ct_looks_like_a_token");
    const secrets = new Map([cart.token, "Bearer not-a-real-customer-token-123", "not-a-real-customer-token-123"].flatMap((value) => secretTokens(value).map((token) => [token, "token"] as const)));
    expect(findLeaks(secrets, [{ name: "captured", text: captured }])).toEqual([]);
  });

  it("logs RPC calls by procedure, one line each", async () => {
    const rpc = createRpcHandler(() => Promise.resolve(app.deps));
    const input = encodeURIComponent(JSON.stringify({ locationSlugOrId: HARBOR.slug }));
    const found = await rpc(new Request(`http://localhost/api/trpc/catalog.location?input=${input}`));
    const missing = await rpc(new Request(`http://localhost/api/trpc/catalog.nothing?input=${input}`));
    expect(found.status).toBe(200);
    expect(lineFor(found.headers.get("x-request-id"))).toMatchObject({ transport: "rpc", method: "GET", route: "/api/trpc/catalog.location", procedure: "catalog.location", status: 200, principal: "anonymous" });
    expect(lineFor(missing.headers.get("x-request-id"))).toMatchObject({ transport: "rpc", route: "(unmatched)", status: 404 });
  });

  it("the scan keeps a composite credential's random parts but not plain words from a fuzzed header", () => {
    expect(secretTokens("'; DROP TABLE idempotency_records; --")).toEqual([]);
    expect(secretTokens("Bearer eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0")).toEqual(["eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0"]);
  });

  it("the scan reads no stack frame, where a chunk name can equal a six-digit code, but still every message", () => {
    const secrets = new Map([["810507", "otp"] as const]);
    const withStack = `{"level":40,"err":{"type":"Error","message":"No such PaymentMethod","stack":"    at a (/app/.next/server/chunks/810507.js:1:810507)\\n    at b (node:internal/x:2:3)"}}`;
    expect(findLeaks(secrets, [{ name: "stack", text: withStack }])).toEqual([]);
    const inMessage = `{"level":40,"err":{"type":"Error","message":"your code is 810507","stack":"    at a (x.js:1:2)"}}`;
    expect(findLeaks(secrets, [{ name: "message", text: inMessage }]).map((leak) => leak.kind)).toEqual(["otp"]);
  });

  it("the scan finds a credential that does reach a log line", () => {
    const token = "ct_AbCdEf0123456789_-xyz";
    const secrets = new Map(secretTokens(token).map((value) => [value, "token"] as const));
    const leaking = `{"level":30,"msg":"oops","headers":{"x-cart-token":"${token}"}}\n{"time":1732240000123,"msg":"fine"}`;
    expect(findLeaks(secrets, [{ name: "sample", text: leaking }])).toEqual([expect.objectContaining({ kind: "token", file: "sample", line: 1 })]);
    // A six-digit code matches a whole number only, never digits inside a timestamp.
    const otp = new Map([["240000", "otp"]]);
    expect(findLeaks(otp, [{ name: "sample", text: leaking }])).toEqual([]);
    expect(findLeaks(otp, [{ name: "sample", text: '{"otp":"240000"}' }])).toHaveLength(1);
    // Of "Bearer x" only x is a secret; "Bearer" alone is ordinary text.
    expect(secretTokens("Bearer eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.abc")).toEqual(["eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.abc"]);
  });
});
