import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../../server/app/deps";
import { openPostgres } from "../../db/open";
import { healthResponse, readinessResponse } from "../../server/http/health";
import type { RateLimiter } from "../../server/integrations/rate-limit";
import { createTestApp, type TestApp } from "../harness";

/** GET /api/health (liveness) and GET /api/ready (database and rate limiter). */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const undecided: RateLimiter = { name: "down", check: () => Promise.resolve({ kind: "unknown", reason: "connection refused" }) };
const ready = (deps: AppDeps) => readinessResponse(() => Promise.resolve(deps));

async function read(response: Response) {
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/health", () => {
  it("answers 200 without asking any dependency, never cached", async () => {
    const response = await read(healthResponse());
    expect(response).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("GET /api/ready", () => {
  it("is ready when the database answers and the limiter decides", async () => {
    const response = await read(await ready(app.deps));
    expect(response).toMatchObject({ status: 200, body: { status: "ready", checks: { database: "ok", rateLimiter: "ok" } } });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 503 with the error envelope when the database is unreachable", async () => {
    const unreachable = await openPostgres("postgres://postgres@127.0.0.1:1/none", { DATABASE_POOL_MAX: 1, DATABASE_PREPARE: true, DATABASE_CONNECT_TIMEOUT_SECONDS: 1, DATABASE_STATEMENT_TIMEOUT_MS: 1000 });
    try {
      const response = await read(await ready({ ...app.deps, database: unreachable }));
      expect(response.status).toBe(503);
      expect(Object.keys(response.body).sort()).toEqual(["code", "details", "message", "requestId"]);
      expect(response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", details: { checks: { database: "unavailable", rateLimiter: "ok" } } });
      expect(response.body.requestId).toBe(response.headers.get("x-request-id"));
      expect(response.headers.get("retry-after")).toBe("5");
      expect(JSON.stringify(response.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    } finally {
      await unreachable.close();
    }
  });

  it("counts a database that does not answer in time as down", async () => {
    const hanging = { ...app.deps.database, ping: () => new Promise<void>(() => undefined) };
    const started = Date.now();
    const response = await read(await ready({ ...app.deps, database: hanging }));
    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a limiter that cannot decide: degraded under RATE_LIMIT_ON_ERROR=allow, unready under deny", async () => {
    const allow = await read(await ready({ ...app.deps, rateLimiter: undecided }));
    expect(allow).toMatchObject({ status: 200, body: { status: "degraded", checks: { database: "ok", rateLimiter: "unavailable" } } });
    const deny = await read(await ready({ ...app.deps, rateLimiter: undecided, env: { ...app.env, RATE_LIMIT_ON_ERROR: "deny" } }));
    expect(deny).toMatchObject({ status: 503, body: { code: "DEPENDENCY_UNAVAILABLE", details: { checks: { rateLimiter: "unavailable" } } } });
  });

  it("answers 503 when the dependencies cannot even be built (a bad configuration)", async () => {
    const response = await read(await readinessResponse(() => Promise.reject(new Error("Invalid configuration: DATABASE_URL"))));
    expect(response).toMatchObject({ status: 503, body: { code: "DEPENDENCY_UNAVAILABLE", details: { checks: { startup: "unavailable" } } } });
    expect(JSON.stringify(response.body)).not.toMatch(/DATABASE_URL/);
  });
});
