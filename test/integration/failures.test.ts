import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awayFromWindowEdge } from "../rate-limit-window";
import type { DatabaseHandle } from "../../db/client";
import { openPostgres } from "../../db/open";
import { createTestApp, HARBOR, idemKey, openTestDatabase, type TestApp } from "../harness";

describe("unexpected errors", () => {
  let database: DatabaseHandle;
  let app: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase();
    // A database whose every query throws an error carrying internal detail.
    const failing: DatabaseHandle = {
      ...database,
      db: new Proxy(database.db, {
        get(target, property) {
          if (property === "select" || property === "transaction") {
            return () => {
              throw new Error("relation secret_internal_table does not exist at /srv/app/db.ts:42");
            };
          }
          return Reflect.get(target, property, target) as unknown;
        },
      }),
    };
    app = await createTestApp({ database: failing });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("answers 500 INTERNAL_ERROR with no internal detail", async () => {
    for (const [method, path, headers, body] of [
      ["GET", `/locations/${HARBOR.locationId}/menus`, {}, undefined],
      ["POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { "Idempotency-Key": idemKey() }, { fulfillmentMethod: "takeout" }],
    ] as const) {
      const response = await app.call(method, path, { headers, body });
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ code: "INTERNAL_ERROR" });
      expect(response.text).not.toMatch(/secret_internal_table|\/srv\/app|stack/);
    }
  });
});

describe("database unreachable", () => {
  let app: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    const unreachable = await openPostgres("postgres://postgres@127.0.0.1:1/none", {
      DATABASE_POOL_MAX: 2,
      DATABASE_PREPARE: true,
      DATABASE_CONNECT_TIMEOUT_SECONDS: 2,
      DATABASE_STATEMENT_TIMEOUT_MS: 2000,
    });
    app = await createTestApp({ database: unreachable });
  });
  afterAll(async () => {
    await app.deps.database.close();
  });

  it("answers 503 DEPENDENCY_UNAVAILABLE with Retry-After, for reads and writes", async () => {
    const read = await app.call("GET", `/locations/${HARBOR.locationId}/menus`);
    expect(read.status, read.text).toBe(503);
    expect(read.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    expect(Number(read.headers.get("retry-after"))).toBeGreaterThan(0);
    const write = await app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } });
    expect(write.status).toBe(503);
    expect(write.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });
});

describe("rate limit over HTTP", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_SECONDS: "600" } });
  });
  afterAll(async () => {
    await app.close();
  });

  it("counts per client address and answers 429 RATE_LIMITED with Retry-After past the limit", async () => {
    await awayFromWindowEdge(600);
    const path = `/locations/${HARBOR.locationId}/gratuity`;
    const remaining: string[] = [];
    for (let index = 0; index < 3; index += 1) remaining.push((await app.call("GET", path, { ip: "198.51.100.7" })).headers.get("x-ratelimit-remaining") ?? "");
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await app.call("GET", path, { ip: "198.51.100.7" });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("x-ratelimit-reset"))).toBeLessThan(Date.now() / 1000 + 601);
    // Another address has its own budget, and a spoofed X-Forwarded-For does not change the bucket.
    expect((await app.call("GET", path, { ip: "198.51.100.8" })).status).toBe(200);
    expect((await app.call("GET", path, { ip: "198.51.100.7", headers: { "X-Forwarded-For": "192.0.2.1" } })).status).toBe(429);
  });
});
