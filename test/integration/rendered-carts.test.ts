import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { carts } from "../../db/schema";
import { publish } from "../../server/catalog-admin/publish";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import { deliveryAddressNearHarbor } from "../routes";
import { createTestApp, HARBOR, mutate, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * A GET cart may be answered from the view rendered for the same row version (server/services/rendered-carts.ts).
 * Each read here first reads the cart once more than it needs, so that a kept rendering exists, then changes
 * one thing a rendering depends on and reads again: the answer must be the cart as it is now. Runs against
 * `npm start` too (vitest.after-build.config.ts).
 */
let app: TestApp;
const start = new Date("2030-01-07T15:00:00.000Z");

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  app.clock.now = start;
});

type Cart = { status: string; revision: number; restaurantDisplayName: string; quoteExpiresAt: string | null; items: unknown[]; catalogRevalidation: CatalogRevalidation | null };

const calamari = { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };
const db = () => app.deps.database.db;
const minutes = (count: number) => new Date(start.getTime() + count * 60_000);

async function read(cart: CartHandle, headers: Record<string, string> = { "X-Cart-Token": cart.token }) {
  const response = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers });
  return { status: response.status, text: response.text, body: response.body as Cart };
}

/** Reads the cart twice, so that the second read may come from a kept rendering, and returns that answer. */
async function readTwice(cart: CartHandle) {
  const first = await read(cart);
  const second = await read(cart);
  expect(second.status, second.text).toBe(200);
  expect(second.text).toBe(first.text);
  return second;
}

async function cartWithItem(fulfillmentMethod = "takeout") {
  const cart = await startCart(app, HARBOR.locationId, fulfillmentMethod);
  const added = await mutate(app, cart, "POST", "/items", calamari);
  expect(added.status, added.text).toBe(200);
  return cart;
}

describe("a read after a rendering was kept", () => {
  it("shows a change made through the service", async () => {
    const cart = await cartWithItem();
    const before = await readTwice(cart);
    expect((await mutate(app, cart, "POST", "/items", { ...calamari, quantity: 2 })).status).toBe(200);
    const after = await read(cart);
    expect(after.body.revision).toBe(before.body.revision + 1);
    expect(after.text).not.toBe(before.text);
  });

  it("shows a change made to the row behind the service's back, its revision unchanged", async () => {
    const cart = await cartWithItem();
    const before = await readTwice(cart);
    await db().update(carts).set({ restaurantDisplayName: "Renamed in SQL" }).where(eq(carts.id, cart.cartId));
    const after = await read(cart);
    expect(after.body.revision).toBe(before.body.revision);
    expect(after.body.restaurantDisplayName).toBe("Renamed in SQL");
  });

  it("shows a publication of the location's catalog", async () => {
    const cart = await cartWithItem();
    expect((await readTwice(cart)).body.catalogRevalidation).toBeNull();
    await publish(db(), HARBOR.locationId, [{ kind: "productPrice", productId: "prd_hk_crispy_calamari", priceMinor: 1560 }]);
    const after = await read(cart);
    expect(after.body.catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"] });
  });

  it("shows the cart's quote expired once its time has passed", async () => {
    const cart = await cartWithItem();
    const before = await readTwice(cart);
    expect(before.body.quoteExpiresAt).toBe(minutes(15).toISOString());
    app.clock.now = minutes(14);
    expect((await read(cart)).text).toBe(before.text);
    app.clock.now = minutes(16);
    const after = await read(cart);
    expect(after.body.catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["QUOTE_EXPIRED"] });
  });

  it("shows the cart EXPIRED once its idle time has passed", async () => {
    const cart = await startCart(app);
    // No quote to expire first: only the idle expiry bounds the rendering.
    await db().update(carts).set({ quoteExpiresAt: null }).where(eq(carts.id, cart.cartId));
    const before = await readTwice(cart);
    expect(before.body).toMatchObject({ status: "OPEN", quoteExpiresAt: null });
    app.clock.now = new Date(start.getTime() + 25 * 60 * 60_000);
    expect((await read(cart)).body.status).toBe("EXPIRED");
  });

  it("shows the courier's quote expired once its time has passed, the cart's own quote lasting longer", async () => {
    const cart = await cartWithItem("delivery");
    expect((await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor)).status).toBe(200);
    await db().update(carts).set({ quoteExpiresAt: minutes(60) }).where(eq(carts.id, cart.cartId));
    const before = await readTwice(cart);
    expect(before.body.catalogRevalidation).toBeNull();
    // The simulated courier's quote lasts five minutes.
    app.clock.now = minutes(6);
    const after = await read(cart);
    expect(after.body.catalogRevalidation?.required).toBe(true);
    expect(after.body.catalogRevalidation?.changeSet.changes.map((change) => change.path)).toContain("deliveryQuote");
  });

  it("still checks the credential", async () => {
    const cart = await cartWithItem();
    const other = await startCart(app);
    await readTwice(cart);
    expect((await read(cart, { "X-Cart-Token": other.token })).status).toBe(403);
    expect((await read(cart, { "X-Cart-Token": `ct_${"x".repeat(43)}` })).status).toBe(401);
    expect((await read(cart, {})).status).toBe(401);
  });
});
