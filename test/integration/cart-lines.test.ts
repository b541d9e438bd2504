import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCart, type CartRow } from "../../server/services/cart-access";
import { cartUpdate } from "../../server/services/carts";
import { writeNow } from "../../server/services/idempotency";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, HARBOR, mutate, startCart, type TestApp } from "../harness";

/**
 * A cart change writes only the line rows it changes (server/services/cart-lines.ts), in the statement
 * of the cart's own compare-and-set. What no request does today is checked here on the write itself:
 * lines in a new order, and a compare-and-set that loses.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const dish = (variant: number) => ({ productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], specialInstructions: `table ${variant}`, itemUnavailableAction: "remove_item" });

async function cartOfThree(): Promise<CartRow> {
  const cart = await startCart(app, HARBOR.locationId);
  let etag = cart.etag;
  for (const item of [chowderCup, dish(1), dish(2)]) {
    const added = await mutate(app, { ...cart, etag }, "POST", "/items", item);
    expect(added.status, added.text).toBe(200);
    etag = added.headers.get("etag") ?? "";
  }
  const row = await findCart(app.deps.database.db, cart.cartId);
  if (!row) throw new Error("no cart");
  return row;
}

describe("a cart's line rows", () => {
  it("take a new order when a change puts its lines in one, a new line among them", async () => {
    const cart = await cartOfThree();
    const [first, second, third] = cart.lines;
    if (!first || !second || !third) throw new Error("three lines expected");
    const fresh = { ...first, id: "line_new_in_the_middle", specialInstructions: "new" };
    const lines = [third, fresh, first];
    const pricedOf = (id: string) => {
      const found = cart.priced.lines.find((line) => line.lineId === id);
      if (!found) throw new Error(`no priced line ${id}`);
      return found;
    };
    const priced = { ...cart.priced, lines: [pricedOf(third.id), { ...pricedOf(first.id), lineId: fresh.id }, pricedOf(first.id)] };
    const update = cartUpdate(cart, { ...cart, lines, priced, revision: cart.revision + 1 }, cart.revision);
    expect(await writeNow(app.deps.database.db, update.statement, update.alongside)).toHaveLength(1);
    const after = await findCart(app.deps.database.db, cart.id);
    expect(after?.lines.map((line) => line.id)).toEqual([third.id, fresh.id, first.id]);
    expect(after?.priced.lines).toEqual(priced.lines);
    expect(after?.revision).toBe(cart.revision + 1);
  });

  it("are left as they were when the cart's compare-and-set loses", async () => {
    const cart = await cartOfThree();
    const [first] = cart.lines;
    if (!first) throw new Error("a line expected");
    const lines = [{ ...first, quantity: 9 }];
    const priced = { ...cart.priced, lines: cart.priced.lines.slice(0, 1) };
    const stale = cartUpdate(cart, { ...cart, lines, priced, revision: cart.revision + 1 }, cart.revision - 1);
    expect(await writeNow(app.deps.database.db, stale.statement, stale.alongside)).toHaveLength(0);
    expect(await findCart(app.deps.database.db, cart.id)).toEqual(cart);
  });
});
