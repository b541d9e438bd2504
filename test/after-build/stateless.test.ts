import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { awayFromWindowEdge } from "../rate-limit-window";
import { ADMIN_URL, databaseUrl } from "../postgres-template";
import { recordSecret, recordSecretHeaders, recordSecretsIn } from "../secrets";
import { startServer, waitUntilReady, type Server } from "./servers";

/**
 * Stateless instances: two production servers (A and B, `node scripts/serve.mjs`) against one
 * Postgres database and one Redis. Whatever one instance did, the other sees: carts, stored
 * idempotent outcomes, and the rate-limit count.
 */
const REST = "/api/v1/storefront";
const HARBOR = "loc_harbor_kitchen_downtown";
const RATE_LIMIT_MAX = 40;
const WINDOW_SECONDS = 3600;
const prefix = `storefront:test:${randomBytes(6).toString("hex")}`;
const chowder = { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" };

let a: Server;
let b: Server;
let redis: Redis;

beforeAll(async () => {
  const run = inject("postgresRun");
  const name = `${run.prefix}_stateless_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name} template ${run.template}`);
  await admin.end();
  const env = {
    DATABASE_URL: databaseUrl(name),
    REDIS_URL: "redis://127.0.0.1:6379",
    RATE_LIMIT_PREFIX: prefix,
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    // One secret for every instance: it seals the stored idempotent responses either may replay.
    AUTH_SECRET: randomBytes(32).toString("hex"),
    LOG_LEVEL: "info",
    // The simulated processor keeps its payments in each process's memory: this test takes none.
    SIMULATED_PAYMENTS: "true",
  };
  [a, b] = await Promise.all([startServer("a", env), startServer("b", env)]);
  await Promise.all([waitUntilReady(a), waitUntilReady(b)]);
  redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  if (redis) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
});

type Reply = { status: number; headers: Headers; text: string; body: Record<string, unknown> };

async function call(server: Server, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const headers = new Headers(options.headers);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(`${server.url}${REST}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  recordSecretHeaders(headers);
  recordSecretsIn(options.body);
  recordSecretsIn(body);
  return { status: response.status, headers: response.headers, text, body };
}

const key = () => `after-build-${randomBytes(12).toString("hex")}`;

describe("two instances, one Postgres, one Redis", () => {
  it("a cart created on A is changed on B and read back on A", async () => {
    const created = await call(a, "POST", `/locations/${HARBOR}/ordering-sessions`, { headers: { "Idempotency-Key": key() }, body: { fulfillmentMethod: "takeout" } });
    expect(created.status, created.text).toBe(201);
    const cart = created.body.cart as { id: string };
    const token = created.body.cartAccessToken as string;
    recordSecret("token", token);

    const added = await call(b, "POST", `/locations/${HARBOR}/carts/${cart.id}/items`, {
      headers: { "X-Cart-Token": token, "If-Match": created.headers.get("etag") ?? "", "Idempotency-Key": key() },
      body: chowder,
    });
    expect(added.status, added.text).toBe(200);
    const etag = added.headers.get("etag") ?? "";
    expect(etag).toBe('"cart-1"');

    const read = await call(a, "GET", `/locations/${HARBOR}/carts/${cart.id}`, { headers: { "X-Cart-Token": token } });
    expect(read.status).toBe(200);
    expect(read.headers.get("etag")).toBe(etag);
    expect((read.body.items as { productId: string }[]).map((item) => item.productId)).toEqual(["prd_hk_clam_chowder"]);

    // B's ETag is A's truth too: a stale one is refused on A, the current one accepted.
    const stale = await call(a, "PUT", `/locations/${HARBOR}/carts/${cart.id}/gratuity`, { headers: { "X-Cart-Token": token, "If-Match": created.headers.get("etag") ?? "", "Idempotency-Key": key() }, body: { rate: "0.15" } });
    expect(stale.body.code).toBe("CART_CONFLICT");
    const fresh = await call(a, "PUT", `/locations/${HARBOR}/carts/${cart.id}/gratuity`, { headers: { "X-Cart-Token": token, "If-Match": etag, "Idempotency-Key": key() }, body: { rate: "0.15" } });
    expect(fresh.status, fresh.text).toBe(200);
  });

  it("an Idempotency-Key used on A replays its stored outcome on B", async () => {
    const idempotencyKey = key();
    const request = { headers: { "Idempotency-Key": idempotencyKey }, body: { fulfillmentMethod: "takeout" } };
    const first = await call(a, "POST", `/locations/${HARBOR}/ordering-sessions`, request);
    const replay = await call(b, "POST", `/locations/${HARBOR}/ordering-sessions`, request);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // An anonymous replay carries everything but the cart token (test/integration/idempotency-scope.test.ts).
    const { cartAccessToken: _token, ...rest } = JSON.parse(first.text) as Record<string, unknown>;
    expect(JSON.parse(replay.text)).toEqual(rest);
    // The same key for a different request is refused on either instance.
    const reused = await call(b, "POST", `/locations/${HARBOR}/ordering-sessions`, { ...request, body: { fulfillmentMethod: "delivery" } });
    expect(reused.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("shares one rate-limit count: requests split across A and B hit 429 together, whatever address headers a client sends", async () => {
    await awayFromWindowEdge(WINDOW_SECONDS, 10_000);

    const path = `/locations/${HARBOR}/menus`;
    const spoofs: Record<string, string>[] = [{}, { "X-Forwarded-For": "198.51.100.1" }, { "X-Storefront-Peer-Address": "198.51.100.2", "X-Real-IP": "198.51.100.3" }];
    const first = await call(a, "GET", path);
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(RATE_LIMIT_MAX));
    let remaining = Number(first.headers.get("x-ratelimit-remaining"));
    expect(remaining).toBeGreaterThan(3);

    let i = 0;
    while (remaining > 0) {
      i += 1;
      const server = i % 2 === 0 ? a : b;
      const response = await call(server, "GET", path, { headers: spoofs[i % spoofs.length] });
      expect(response.status, `request ${i} on ${server.name}`).toBe(200);
      expect(Number(response.headers.get("x-ratelimit-remaining")), `request ${i} on ${server.name}`).toBe(remaining - 1);
      remaining -= 1;
    }
    for (const server of [a, b]) {
      const limited = await call(server, "GET", path, { headers: { "X-Forwarded-For": "203.0.113.77" } });
      expect(limited.status, server.name).toBe(429);
      expect(limited.body.code).toBe("RATE_LIMITED");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // The one shared counter is keyed by the TCP peer that scripts/serve.mjs stamped, not by any header.
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.filter((name) => name.startsWith(`${prefix}:ip:127.0.0.1:`))).toHaveLength(1);
    expect(keys.some((name) => /198\.51\.100|203\.0\.113|unknown/.test(name))).toBe(false);
  });

  it("each instance logs one JSON line per request, by route template", () => {
    for (const server of [a, b]) {
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { msg?: string; route?: string; status?: number; principal?: string });
      const requests = lines.filter((line) => line.msg === "request");
      expect(requests.length).toBeGreaterThan(5);
      expect(requests.some((line) => line.route === "/locations/{locationId}/menus" && line.status === 429)).toBe(true);
      expect(server.output()).toMatch(/"msg":"dependencies ready"/);
    }
    expect(b.output()).toMatch(/"route":"\/locations\/\{locationId\}\/carts\/\{cartId\}\/items","procedure":"carts.addItem","kind":"cartMutation","status":200/);
  });
});
