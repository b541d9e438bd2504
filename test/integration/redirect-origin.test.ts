import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/**
 * Without STOREFRONT_BASE_URL, /redirect links to the host the client addressed (its Host header),
 * not to the address in the URL the framework built (behind `next start` that is the address the
 * server listens on, http://0.0.0.0:3000). The answer is cached for anonymous readers, so the cache
 * keys it by that host too: one host's link is never served to another.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { RESPONSE_CACHE_TTL_MS: "30000" } });
});
afterAll(async () => {
  await app.close();
});

describe("the storefront link of a location, without STOREFRONT_BASE_URL", () => {
  it("names the host each client addressed, also when the answer comes from the response cache", async () => {
    const path = `/locations/${HARBOR.locationId}/redirect`;
    for (const round of [1, 2]) {
      for (const host of ["shop.example.com", "order.example.net:8080"]) {
        const response = await app.call("GET", path, { headers: { host } });
        expect(response.status, response.text).toBe(200);
        expect(response.body, `${host}, round ${round}`).toMatchObject({ url: `http://${host}/l/${HARBOR.slug}` });
      }
    }
  });
});
