import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, HARBOR, mutate, startCart, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("smoke", () => {
  it("reads a location and builds a priced cart", async () => {
    const location = await app.call("GET", `/locations/${HARBOR.slug}`);
    expect(location.status, location.text).toBe(200);
    const menus = await app.call("GET", `/locations/${HARBOR.locationId}/menus`);
    expect(menus.status, menus.text).toBe(200);
    const handle = await startCart(app);
    const added = await mutate(app, handle, "POST", "/items", { productId: "prd_hk_clam_chowder", quantity: 2, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" });
    expect(added.status, added.text).toBe(200);
  });
});
