import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * A REST body may not carry a member the operation's path gives (the document gives every body
 * `additionalProperties: false` without them): before, `{"cartId": "other"}` was silently ignored,
 * the path's value winning. Refused with 400, naming the member, and nothing changes.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const chowder = { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_cup" }], itemUnavailableAction: "remove_item" };

describe("path parameters in a REST body", () => {
  it("are refused on a cart mutation, the ordering session and the gratuity, and nothing changes", async () => {
    const cart = await startCart(app);
    for (const extra of [{ cartId: "cart_other" }, { locationId: "loc_dune_grill_marina" }, { cartId: cart.cartId }]) {
      const response = await mutate(app, cart, "POST", "/items", { ...chowder, ...extra });
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fields: Object.keys(extra).map((name) => ({ path: `body.${name}` })) } });
    }
    const tip = await mutate(app, cart, "PUT", "/gratuity", { rate: "0.10", cartId: "cart_other" });
    expect(tip.status, tip.text).toBe(400);
    const session = await app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, {
      headers: { "Idempotency-Key": idemKey() },
      body: { fulfillmentMethod: "takeout", locationId: "loc_dune_grill_marina" },
    });
    expect(session.status, session.text).toBe(400);
    expect(session.body).toMatchObject({ details: { fields: [{ path: "body.locationId" }] } });
    const read = await app.call("GET", `/locations/${HARBOR.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(read.body).toMatchObject({ revision: 0, items: [] });
    // The same body without them is taken.
    expect((await mutate(app, cart, "POST", "/items", chowder)).status).toBe(200);
  });
});
