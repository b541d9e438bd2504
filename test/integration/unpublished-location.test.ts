import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, locations } from "../../db/schema";
import { findCart } from "../../server/services/cart-access";
import { publish } from "../../server/catalog-admin/publish";
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
    const before = await findCart(app.deps.database.db, cart.cartId);
    await app.deps.database.db.update(locations).set({ published: false }).where(eq(locations.id, DUNE.locationId));
    try {
      // A wrong credential is still 401 first.
      const stranger = await mutate(app, { ...cart, token: "ct_not-a-real-token" }, "POST", "/items", duneHummus);
      expect(stranger.status).toBe(401);
      const refused = await mutate(app, cart, "POST", "/items", duneHummus);
      expect(refused.status, refused.text).toBe(404);
      expect(refused.body).toMatchObject({ code: "NOT_FOUND" });
      expect((refused.body as { message: string }).message).toMatch(/Location/);
      const after = await findCart(app.deps.database.db, cart.cartId);
      expect(after?.revision).toBe(before?.revision);
      expect(after?.lines).toEqual(before?.lines);
    } finally {
      await app.deps.database.db.update(locations).set({ published: true }).where(eq(locations.id, DUNE.locationId));
    }
  });

  it("still lets the cart be expired (the contract's DELETE has no condition), once per key, and nothing else", async () => {
    app.clock.now = new Date("2026-12-02T12:00:00+04:00");
    const cart = await startCart(app, DUNE.locationId);
    const added = await mutate(app, cart, "POST", "/items", duneHummus);
    expect(added.status).toBe(200);
    const current = { ...cart, etag: added.headers.get("etag") ?? "" };
    await app.deps.database.db.update(locations).set({ published: false }).where(eq(locations.id, DUNE.locationId));
    try {
      expect((await mutate(app, { ...current }, "PUT", "/courier-tip", { amount: "1.00" })).status).toBe(404);
      const key = { "Idempotency-Key": `expire-unpublished-${Date.now()}` };
      const expired = await mutate(app, { ...current }, "DELETE", "", {}, key);
      expect(expired.status, expired.text).toBe(200);
      expect(expired.body).toMatchObject({ status: "EXPIRED" });
      const [row] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
      expect(row?.status).toBe("EXPIRED");
      const replayed = await mutate(app, { ...current }, "DELETE", "", {}, key);
      expect([replayed.status, replayed.text, replayed.headers.get("etag")]).toEqual([200, expired.text, expired.headers.get("etag")]);
      const [again] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
      expect(again?.revision).toBe(row?.revision);
    } finally {
      await app.deps.database.db.update(locations).set({ published: true }).where(eq(locations.id, DUNE.locationId));
    }
  });

  it("still answers a read of the cart, with what a publication changed since (its location is read whole, published or not)", async () => {
    app.clock.now = new Date("2026-12-02T12:00:00+04:00");
    const cart = await startCart(app, DUNE.locationId);
    expect((await mutate(app, cart, "POST", "/items", duneHummus)).status).toBe(200);
    await publish(app.deps.database.db, DUNE.locationId, [{ kind: "productPrice", productId: duneHummus.productId, priceMinor: 4_321 }]);
    await app.deps.database.db.update(locations).set({ published: false }).where(eq(locations.id, DUNE.locationId));
    try {
      const read = await app.call("GET", `/locations/${DUNE.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
      expect(read.status, read.text).toBe(200);
      expect((read.body as { catalogRevalidation: unknown }).catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"] });
    } finally {
      await app.deps.database.db.update(locations).set({ published: true }).where(eq(locations.id, DUNE.locationId));
    }
  });
});
