import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, locations } from "../../db/schema";
import { duneHummus } from "../checkout-helpers";
import { createTestApp, DUNE, mutate, startCart, type TestApp } from "../harness";

/**
 * A cart mutation reads its cart and location in one statement; the errors still come in the order
 * of reading them one after the other: the cart's credential, then the location being published.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});


describe("a cart whose location is unpublished", () => {
  it("refuses a change with 404 Location after the credential checks, and changes nothing", async () => {
    app.clock.now = new Date("2026-12-02T12:00:00+04:00");
    const cart = await startCart(app, DUNE.locationId);
    expect((await mutate(app, cart, "POST", "/items", duneHummus)).status).toBe(200);
    const [before] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
    await app.deps.database.db.update(locations).set({ published: false }).where(eq(locations.id, DUNE.locationId));
    try {
      // A wrong credential is still 401 first.
      const stranger = await mutate(app, { ...cart, token: "ct_not-a-real-token" }, "POST", "/items", duneHummus);
      expect(stranger.status).toBe(401);
      const refused = await mutate(app, cart, "POST", "/items", duneHummus);
      expect(refused.status, refused.text).toBe(404);
      expect(refused.body).toMatchObject({ code: "NOT_FOUND" });
      expect((refused.body as { message: string }).message).toMatch(/Location/);
      const [after] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
      expect(after?.revision).toBe(before?.revision);
      expect(after?.lines).toEqual(before?.lines);
    } finally {
      await app.deps.database.db.update(locations).set({ published: true }).where(eq(locations.id, DUNE.locationId));
    }
  });
});
