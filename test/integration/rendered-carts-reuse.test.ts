import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { carts } from "../../db/schema";
import { linesColumn } from "../../server/services/cart-lines";
import { findCart } from "../../server/services/cart-access";
import { publish } from "../../server/catalog-admin/publish";
import { createRenderedCarts } from "../../server/services/rendered-carts";
import { withDetectedChanges } from "../../server/services/revalidation";
import { pricedCart } from "../checkout-helpers";
import { deliveryAddressNearHarbor } from "../routes";
import { createTestApp, HARBOR, mutate, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * What a kept rendering saves, and that it answers what rendering again gives: observed at the lines'
 * decoder (cart-lines.ts), which every decoded cart row goes through. In-process: it watches the decoder
 * and swaps the app's renderings (the behaviour is shown against `npm start` by rendered-carts.test.ts).
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  app.clock.now = new Date("2030-01-07T15:00:00.000Z");
});
afterAll(async () => {
  await app.close();
});

const read = async (cart: CartHandle) => {
  const response = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
  expect(response.status, response.text).toBe(200);
  return response.text;
};

const cartWithItem = () => pricedCart(app, { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" });

describe("a GET cart answered from its kept rendering", () => {
  it("decodes no row, and answers the bytes a new rendering gives", async () => {
    const cart = await cartWithItem();
    const decodeLines = vi.spyOn(linesColumn, "decode");
    try {
      const first = await read(cart);
      expect(decodeLines).toHaveBeenCalledTimes(1);
      decodeLines.mockClear();
      const second = await read(cart);
      expect(decodeLines).not.toHaveBeenCalled();
      expect(second).toBe(first);

      app.deps.renderedCarts = createRenderedCarts();
      expect(await read(cart)).toBe(second);
      expect(decodeLines).toHaveBeenCalledTimes(1);
    } finally {
      decodeLines.mockRestore();
    }
  });

  it("reads the row again, lines and all, when the rendering its read left them out for is gone by the time it is used", async () => {
    // Renderings that are kept and found by the read's check, but gone when the read comes to use one (evicted,
    // or replaced by another request's): every read after the first leaves the lines out, then must read again.
    const renderings = createRenderedCarts();
    const racing = await createTestApp({ database: app.deps.database, overrides: () => ({ renderedCarts: { ...renderings, get: () => undefined } }) });
    try {
      racing.clock.now = app.clock.now;
      const cart = await pricedCart(racing, { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" });
      const path = `/locations/${cart.locationId}/carts/${cart.cartId}`;
      const first = await racing.call("GET", path, { headers: { "X-Cart-Token": cart.token } });
      expect(first.status, first.text).toBe(200);
      expect(renderings.usableAt(cart.cartId, racing.clock.now)).toBeDefined();
      const second = await racing.call("GET", path, { headers: { "X-Cart-Token": cart.token } });
      expect(second.status, second.text).toBe(200);
      expect(second.text).toBe(first.text);
    } finally {
      await racing.close();
    }
  });

  it("is never kept while the read finds news to report", async () => {
    const cart = await cartWithItem();
    await publish(app.deps.database.db, HARBOR.locationId, [{ kind: "productPrice", productId: "prd_hk_crispy_calamari", priceMinor: 1570 }]);
    const decodeLines = vi.spyOn(linesColumn, "decode");
    try {
      const first = await read(cart);
      const second = await read(cart);
      expect(second).toBe(first);
      expect(decodeLines).toHaveBeenCalledTimes(2);
    } finally {
      decodeLines.mockRestore();
    }
  });
});

describe("a read of a cart past its idle expiry (withDetectedChanges)", () => {
  it("reads it as it is, without its quotes being looked at", async () => {
    // A courier quote whose expiry cannot be read: checking it throws, and an expired cart has nothing to check.
    // Called directly: the answer's schema would refuse the stored quote before any response is made.
    const cart = await startCart(app, HARBOR.locationId, "delivery");
    expect((await mutate(app, cart, "POST", "/items", { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" })).status).toBe(200);
    expect((await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor)).status).toBe(200);
    const db = app.deps.database.db;
    await db.update(carts).set({ deliveryQuote: sql`jsonb_set(${carts.deliveryQuote}, '{expiresAt}', '"not a time"')` }).where(eq(carts.id, cart.cartId));
    const row = await findCart(db, cart.cartId);
    if (!row) throw new Error("no cart");
    const later = new Date(row.expiresAt.getTime() + 60_000);
    const readLocation = () => Promise.reject(new Error("an expired cart's read looked at its location"));
    const read = await withDetectedChanges(db, row, { catalogRevision: row.catalogRevision, policyRevision: row.policyRevision }, later, readLocation);
    expect(read.cart).toBe(row);
    expect(read.sameBefore).toBe(Number.NEGATIVE_INFINITY);
  });
});
