import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, waitUntilReady, type Server } from "./servers";

/**
 * npm start's direct mount builds the URL its handler sees from the address it listens on, as Next
 * does (never from the Host header). An empty HOSTNAME listens on every interface; the URL then
 * names localhost, and every request is still served (each was a 400 before).
 */
let server: Server;
beforeAll(async () => {
  server = await startServer("listen-everywhere", { HOSTNAME: "", PGLITE_DATA_DIR: "memory://", AUTH_SECRET: "x".repeat(40) });
  await waitUntilReady(server);
});
afterAll(async () => {
  await server?.stop();
});

describe("npm start with an empty HOSTNAME", () => {
  it("serves the REST API on its direct mount", async () => {
    const response = await fetch(`${server.url}/api/v1/storefront/locations/loc_harbor_kitchen_downtown/menus`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as { menus: unknown[] }).menus.length).toBeGreaterThan(0);
  });
});
