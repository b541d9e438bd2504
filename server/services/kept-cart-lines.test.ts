import { describe, expect, it } from "vitest";
import type { CartLine, PricedCart, PricedLine } from "../domain/cart-types";
import type { CartView } from "../schemas/cart";
import { cartItems, type RenderedItem } from "./cart-items";
import { createKeptCartLines, keptLinesBytes } from "./kept-cart-lines";

let made = 0;
function line(specialInstructions: string): CartLine {
  made += 1;
  return { id: `li_${made}`, productId: "p", name: "Burger", description: "", imageUrl: "", categoryId: "c", quantity: 1, basePriceMinor: 100, selections: [], specialInstructions, itemUnavailableAction: "remove_item" };
}

const render = (each: CartLine, unit: number, total: number, discount: number): RenderedItem => {
  const item = { id: each.id, quantity: each.quantity, specialInstructions: each.specialInstructions, unit, total, discount } as unknown as CartView["items"][number];
  return { item, text: JSON.stringify(item) };
};

/** A cart's lines as a change leaves them: priced, and its answer's items rendered (carts.ts mutateCart renders before it commits). */
function changedCart(count: number, instructions: string): { lines: CartLine[]; priced: PricedCart } {
  const lines = Array.from({ length: count }, () => line(instructions));
  const pricedLines: PricedLine[] = lines.map((each) => ({ lineId: each.id, unitPriceMinor: 100, totalMinor: 100, discountMinor: 0 }));
  cartItems(lines, pricedLines, "usd", render);
  return { lines, priced: { lines: pricedLines } as PricedCart };
}

describe("kept cart lines: counted by what their lines hold", () => {
  it("counts a line by its rendered item's length, so long lines count for more than short ones", () => {
    const short = changedCart(10, "");
    const long = changedCart(10, "x".repeat(3_000));
    expect(keptLinesBytes(long.lines)).toBeGreaterThan(keptLinesBytes(short.lines) + 10 * 3_000 * 9);
  });

  it("keeps fewer carts of long lines: 32 MB holds about nine carts of 100 lines of 3,000 characters, not twenty", () => {
    const kept = createKeptCartLines();
    const carts = Array.from({ length: 20 }, (_, index) => ({ id: `cart_${index}`, ...changedCart(100, "y".repeat(3_000)) }));
    for (const cart of carts) kept.keep(cart.id, { version: "1", lines: cart.lines, priced: cart.priced });
    const still = carts.filter((cart) => kept.get(cart.id) !== undefined).map((cart) => cart.id);
    // Counted at 10 KB a line whatever it held, all twenty were kept.
    expect(still.length).toBeGreaterThanOrEqual(8);
    expect(still.length).toBeLessThanOrEqual(10);
    expect(still).toContain("cart_19");
    expect(still).not.toContain("cart_0");
  });

  it("still keeps hundreds of ordinary carts", () => {
    const kept = createKeptCartLines();
    const carts = Array.from({ length: 400 }, (_, index) => ({ id: `cart_${index}`, ...changedCart(5, "no onions") }));
    for (const cart of carts) kept.keep(cart.id, { version: "1", lines: cart.lines, priced: cart.priced });
    expect(carts.every((cart) => kept.get(cart.id)?.lines === cart.lines)).toBe(true);
  });
});
