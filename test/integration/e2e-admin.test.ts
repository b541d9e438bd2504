import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/e2e/publish/route";
import { parseEnv } from "../../server/env";
import { handleE2ePublish } from "../../server/http/e2e-admin";
import { cartUrl, pricedCart } from "../checkout-helpers";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/** POST /api/e2e/publish, the browser tests' way to change the catalog mid-test. */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { E2E_ADMIN_ROUTES: "true" } });
});
afterAll(async () => {
  await app.close();
});

const publishBody = (priceMinor: number) => JSON.stringify({ locationId: HARBOR.locationId, changes: [{ kind: "productPrice", productId: "prd_hk_clam_chowder", priceMinor }] });

describe("the e2e catalog route", () => {
  it("is off unless E2E_ADMIN_ROUTES is set, and may not be set on Vercel", async () => {
    expect(parseEnv({}).E2E_ADMIN_ROUTES).toBe(false);
    expect(() => parseEnv({ E2E_ADMIN_ROUTES: "true", VERCEL: "1", DATABASE_URL: "postgres://db.example.com/app", AUTH_SECRET: "x".repeat(32) })).toThrow(/E2E_ADMIN_ROUTES/);
    // The route file reads the process's own configuration, which the test run leaves unset.
    const response = await POST(new Request("http://localhost/api/e2e/publish", { method: "POST", body: publishBody(1) }));
    expect(response.status).toBe(404);
    const off = await createTestApp({ database: app.deps.database });
    expect((await handleE2ePublish(off.deps, publishBody(1))).status).toBe(404);
    await off.close();
  });

  it("publishes a price change that open carts then report as PRICE_CHANGED", async () => {
    const cart = await pricedCart(app);
    const before = await app.call("GET", cartUrl(cart), { headers: { "X-Cart-Token": cart.token } });
    expect((before.body as { catalogRevalidation: unknown }).catalogRevalidation).toBeNull();

    const published = await handleE2ePublish(app.deps, publishBody(1234));
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ catalogRevision: expect.any(Number) as number });

    const after = await app.call("GET", cartUrl(cart), { headers: { "X-Cart-Token": cart.token } });
    const revalidation = (after.body as { catalogRevalidation: { required: boolean; changeSet: { changes: { reason: string; path: string; after: unknown }[] } } }).catalogRevalidation;
    expect(revalidation.required).toBe(true);
    expect(revalidation.changeSet.changes).toContainEqual(expect.objectContaining({ reason: "PRICE_CHANGED", path: "items.0.product.price", after: "12.34" }));
  });

  it("answers 400 for a malformed body or an unknown product, and changes nothing", async () => {
    expect((await handleE2ePublish(app.deps, "{not json")).status).toBe(400);
    expect((await handleE2ePublish(app.deps, JSON.stringify({ locationId: HARBOR.locationId, changes: [{ kind: "productRemoved", productId: "prd_hk_clam_chowder" }] }))).status).toBe(400);
    expect((await handleE2ePublish(app.deps, JSON.stringify({ locationId: HARBOR.locationId, changes: [{ kind: "productPrice", productId: "prd_hk_clam_chowder", priceMinor: -1 }] }))).status).toBe(400);
    const unknown = await handleE2ePublish(app.deps, JSON.stringify({ locationId: HARBOR.locationId, changes: [{ kind: "productPrice", productId: "prd_nope", priceMinor: 100 }] }));
    expect(unknown).toEqual({ status: 400, body: { code: "VALIDATION_ERROR", message: "unknown product prd_nope at loc_harbor_kitchen_downtown" } });
  });
});
