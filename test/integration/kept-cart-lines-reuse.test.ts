import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { jsonText } from "../../db/json-text";
import { repriceCart } from "../../server/services/cart-pricing";
import { toCartView } from "../../server/services/cart-view";
import { cartRowVersion, findCart } from "../../server/services/cart-access";
import { linesColumn } from "../../server/services/cart-lines";
import { lastWrite } from "../../server/services/idempotency";
import { fragment, rawFragment } from "../../db/fragment";
import { chowderCup } from "../checkout-helpers";
import { cartCredential, createTestApp, HARBOR, mutate, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * What kept lines (server/services/kept-cart-lines.ts) and per-line texts (server/services/line-texts.ts)
 * spare, and that each text is the one making it anew gives. In-process: it watches the lines' decoder
 * (cart-lines.ts), which every decoded cart row goes through, and calls the renderer directly (the answers
 * are shown against `npm start` by mutation-answers.test.ts).
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  app.clock.now = new Date("2030-01-07T15:00:00.000Z");
});
afterAll(async () => {
  await app.close();
});

const calamari = { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };
const read = (cart: CartHandle) => app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
const storedRow = async (cartId: string) => {
  const row = await findCart(app.deps.database.db, cartId);
  if (!row) throw new Error("no cart row");
  return row;
};

describe("a change of a cart this process last wrote", () => {
  it("reads no lines, and answers the bytes a GET renders from the row", async () => {
    const cart = await startCart(app, HARBOR.locationId);
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    const decodeLines = vi.spyOn(linesColumn, "decode");
    try {
      const added = await mutate(app, cart, "POST", "/items", calamari);
      expect(added.status, added.text).toBe(200);
      const merged = await mutate(app, cart, "POST", "/items", calamari);
      expect(merged.status, merged.text).toBe(200);
      expect(decodeLines).not.toHaveBeenCalled();
      const got = await read(cart);
      expect(decodeLines).toHaveBeenCalledTimes(1);
      expect(got.text).toBe(merged.text);
    } finally {
      decodeLines.mockRestore();
    }
  });
});

describe("a cart's last statement run outside an Idempotency-Key's transaction", () => {
  it("keeps no version: the transaction may write the row again under the same xmin", async () => {
    const cart = await startCart(app, HARBOR.locationId);
    const onWritten = vi.fn();
    await app.deps.database.db.transaction(async (tx) => {
      await lastWrite(
        tx,
        fragment`update carts set updated_at = updated_at where id = ${cart.cartId} returning ${rawFragment(cartRowVersion("carts"))} as row_version`,
        () => Promise.reject(new Error("no row")),
        onWritten,
      );
    });
    expect(onWritten).not.toHaveBeenCalled();
  });
});

describe("what is made once per line", () => {
  it("is what making it anew gives: the stored lines, the quote fingerprint and the answer's text", async () => {
    const cart = await startCart(app, HARBOR.locationId);
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    expect((await mutate(app, cart, "POST", "/items", calamari)).status).toBe(200);
    const row = await storedRow(cart.cartId);
    // Values that hold the answer's own key, where the items' text is spliced in.
    const withMetadata = { ...row, metadata: { items: "[]", note: '"items":[]', nested: { items: [1, 2] } } };
    const first = toCartView(withMetadata, app.clock.now);
    expect(jsonText(first)).toBe(JSON.stringify(first));
    // The same line objects again, priced differently: each line's rendering and quote text are made again.
    const location = { fees: row.priced.fees, fulfilment: { takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 15, slotMinutes: 15 } }, gratuity: { presets: [], defaultRate: null, allowCustomAmount: true, maxRate: "0.5" } };
    const discounted = { ...withMetadata, discount: { code: "TEN", rate: "0.10", amountMinor: null, minimumSubtotalMinor: 0 } };
    const repriced = { ...discounted, ...repriceCart(discounted, location, app.clock.now) };
    const fresh = structuredClone(repriced);
    expect(repriced.priced.discountTotal).toBeGreaterThan(0);
    expect(repriceCart(repriced, location, app.clock.now).quoteFingerprint).toBe(repriceCart(fresh, location, app.clock.now).quoteFingerprint);
    const second = toCartView(repriced, app.clock.now);
    expect(jsonText(second)).toBe(JSON.stringify(second));
    expect(jsonText(second)).toBe(JSON.stringify(toCartView(fresh, app.clock.now)));
    expect(second.items.map((item) => item.discount)).not.toEqual(first.items.map((item) => item.discount));
  });
});
