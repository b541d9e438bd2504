import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { CartLine, PricedLine } from "../domain/cart-types";
import type { CartView } from "../schemas/cart";
import { cartItems, type RenderedItem } from "./cart-items";
import { quoteLinesText } from "./quote-lines";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

let made = 0;
function line(): CartLine {
  made += 1;
  return {
    id: `li_${made}`,
    productId: `prod_${made % 7}`,
    name: `Item ${made}`,
    description: `A line with a description of about a hundred and twenty characters, as a menu's are: number ${made}.`,
    imageUrl: `https://images.example.com/products/${made}.jpg`,
    categoryId: "cat",
    quantity: 1,
    basePriceMinor: 1_000,
    selections: [],
    specialInstructions: "",
    itemUnavailableAction: "remove_item",
  };
}

const render = (each: CartLine, unit: number, total: number, discount: number): RenderedItem => {
  const item = { ...each, unit, total, discount } as unknown as CartView["items"][number];
  return { item, text: JSON.stringify(item) };
};
const pricedOf = (lines: readonly CartLine[]): PricedLine[] => lines.map((each) => ({ lineId: each.id, unitPriceMinor: 1_000, totalMinor: 1_000 * each.quantity, discountMinor: 0 }));

/** What a cart change makes of its lines: the answer's items and the quote's sorted texts. */
function makeLists(lines: readonly CartLine[]): void {
  cartItems(lines, pricedOf(lines), "usd", render);
  quoteLinesText(lines, lines.map(() => 1_000));
}

/** Heap still in use once `build` has run and only what it returned is held. */
async function retainedBy(build: () => CartLine[][]): Promise<number> {
  const settle = async () => {
    // WeakMap entries and WeakRefs are let go only after the current job.
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let pass = 0; pass < 4; pass += 1) collect();
    return process.memoryUsage().heapUsed;
  };
  const before = await settle();
  const held = build();
  const after = await settle();
  expect(held.length).toBeGreaterThan(0);
  return after - before;
}

describe("what a cart's line lists keep in memory", () => {
  const carts = 5;
  const size = 100;

  it("does not grow with every list the cart ever was when it is built one line at a time", async () => {
    const atOnce = await retainedBy(() =>
      Array.from({ length: carts }, () => {
        const lines = Array.from({ length: size }, line);
        makeLists(lines);
        return lines;
      }),
    );
    const byAppends = await retainedBy(() =>
      Array.from({ length: carts }, () => {
        let lines: CartLine[] = [];
        for (let count = 0; count < size; count += 1) {
          lines = [...lines, line()];
          makeLists(lines);
        }
        return lines;
      }),
    );
    // Before the basis was forgotten at its ends, byAppends kept ~13x what atOnce did (1 + 2 + ... + 100 lines each).
    expect(byAppends).toBeLessThan(2 * atOnce);
  });
});
