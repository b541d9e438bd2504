import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/** On Vercel the REST handler also allows the deployment's own https origins (server/http/cors.ts corsAllowlist). */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({
    env: {
      VERCEL: "1",
      VERCEL_ENV: "preview",
      // Required on Vercel; the harness serves its own test database whatever this says.
      DATABASE_URL: "postgres://unused@127.0.0.1:5432/unused",
      VERCEL_URL: "storefront-abc123-team.vercel.app",
      VERCEL_BRANCH_URL: "storefront-git-feature-team.vercel.app",
      CORS_ALLOWED_ORIGINS: "https://shop.example.com",
    },
  });
});
afterAll(async () => {
  await app.close();
});

const menus = `/locations/${HARBOR.locationId}/menus`;

describe("CORS on a Vercel deployment", () => {
  it.each(["https://storefront-abc123-team.vercel.app", "https://storefront-git-feature-team.vercel.app", "https://shop.example.com"])("answers the preflight of %s and reflects it", async (origin) => {
    const preflight = await app.call("OPTIONS", menus, { headers: { Origin: origin, "Access-Control-Request-Method": "GET" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    const read = await app.call("GET", menus, { headers: { Origin: origin } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it("refuses other deployments and plain http", async () => {
    for (const origin of ["https://storefront-zzz999-team.vercel.app", "http://storefront-abc123-team.vercel.app"]) {
      const preflight = await app.call("OPTIONS", menus, { headers: { Origin: origin, "Access-Control-Request-Method": "GET" } });
      expect(preflight.status, origin).toBe(403);
      const read = await app.call("GET", menus, { headers: { Origin: origin } });
      expect(read.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
  });
});
