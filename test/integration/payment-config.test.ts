import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../server/env";
import { createTestApp, DUNE, HARBOR, type TestApp } from "../harness";
import { FAKE_STRIPE_KEY } from "../stripe-fake";

/** GET /locations/{locationId}/payment-config: what the storefront needs to choose its payment form. */
let simulated: TestApp;
beforeAll(async () => {
  simulated = await createTestApp();
});
afterAll(async () => {
  await simulated.close();
});

describe("payment config", () => {
  it("names the simulated processor and no publishable key by default", async () => {
    for (const locationId of [HARBOR.locationId, DUNE.locationId]) {
      const response = await simulated.call("GET", `/locations/${locationId}/payment-config`);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ processor: "simulated", publishableKey: null });
      expect(response.headers.get("cache-control")).toMatch(/^public/);
    }
  });

  it("is 404 for an unknown location, and for a location given by slug (ids only, like every location-scoped read)", async () => {
    expect((await simulated.call("GET", "/locations/loc_nowhere/payment-config")).status).toBe(404);
    expect((await simulated.call("GET", `/locations/${HARBOR.slug}/payment-config`)).status).toBe(404);
  });

  it("hands out the publishable key when Stripe is the processor", async () => {
    const app = await createTestApp({
      database: simulated.deps.database,
      env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: "whsec_config_test", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront_demo" },
    });
    const response = await app.call("GET", `/locations/${HARBOR.locationId}/payment-config`);
    expect(response.body).toEqual({ processor: "stripe", publishableKey: "pk_test_storefront_demo" });
    await app.close();

    const withoutKey = await createTestApp({ database: simulated.deps.database, env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: "whsec_config_test" } });
    expect((await withoutKey.call("GET", `/locations/${HARBOR.locationId}/payment-config`)).body).toEqual({ processor: "stripe", publishableKey: null });
    await withoutKey.close();
  });

  it("refuses a publishable key without Stripe, of the other mode, or of the wrong kind", () => {
    expect(() => parseEnv({ STRIPE_PUBLISHABLE_KEY: "pk_test_abc" })).toThrow(/STRIPE_PUBLISHABLE_KEY: needs STRIPE_SECRET_KEY/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PUBLISHABLE_KEY: "pk_live_abc" })).toThrow(/live-mode key/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PUBLISHABLE_KEY: "sk_test_abc" })).toThrow(/publishable key/);
    expect(parseEnv({ STRIPE_SECRET_KEY: "rk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PUBLISHABLE_KEY: "pk_live_abc" }).STRIPE_PUBLISHABLE_KEY).toBe("pk_live_abc");
  });
});
