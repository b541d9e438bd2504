import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ownDatabase, startServer, waitUntilReady, type Server } from "./servers";

/**
 * The production build carries the test fixtures (the browser tests' catalog route, the bench's
 * control route, the test clock) so that the tests exercise the build that ships; started as a
 * deployment starts it, none of them is reachable.
 */
let server: Server;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;

beforeAll(async () => {
  database = await ownDatabase("hooks", inject("postgresRun"));
  server = await startServer("test-hooks", { DATABASE_URL: database.url, AUTH_SECRET: randomBytes(32).toString("hex"), LOG_LEVEL: "info", SIMULATED_PAYMENTS: "true" });
  await waitUntilReady(server);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("test fixtures in a production start without their flags", () => {
  it("the catalog route of the browser tests and the bench's control route answer 404", async () => {
    const publish = await fetch(`${server.url}/api/e2e/publish`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locationId: "loc_harbor_kitchen_downtown", changes: [{ kind: "productPrice", productId: "prd_hk_clam_chowder", priceMinor: 1 }] }),
    });
    expect(publish.status).toBe(404);
    for (const method of ["GET", "POST"]) {
      const bench = await fetch(`${server.url}/api/bench/add-item`, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
      expect(bench.status, method).toBe(404);
    }
  });

  it("X-Test-Clock is ignored: a cart opened 'in 2001' expires from the real time", async () => {
    const response = await fetch(`${server.url}/api/v1/storefront/locations/loc_harbor_kitchen_downtown/ordering-sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": `hooks-${randomBytes(8).toString("hex")}`, "X-Test-Clock": "2001-02-03T04:05:06.000Z" },
      body: JSON.stringify({ fulfillmentMethod: "takeout" }),
    });
    expect(response.status).toBe(201);
    const { cart } = (await response.json()) as { cart: { expiresAt: string } };
    expect(new Date(cart.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });
});

describe("one-time codes on a production start with its own database and no SMTP", () => {
  it("turns customer sign-in off with a 503 envelope and serves no outbox", async () => {
    const login = await fetch(`${server.url}/api/v1/storefront/customer/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": `hooks-${randomBytes(8).toString("hex")}` },
      body: JSON.stringify({ merchantSlug: "harbor-kitchen", identifierString: "victim@example.com" }),
    });
    expect(login.status).toBe(503);
    expect(await login.json()).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", message: expect.stringMatching(/sign-in is not available/) as unknown });
    for (const path of ["/api/dev/outbox", "/api/dev/outbox?to=victim@example.com", "/dev/outbox"]) expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
  });
});
