import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine, PricedCart, PricedLine } from "./cart-types";
import { pricedInOrder, pricedLinesInOrder } from "./priced-lines";

const line = (id: string) => ({ id }) as CartLine;
const pricedLine = (lineId: string, unitPriceMinor: number): PricedLine => ({ lineId, unitPriceMinor, totalMinor: unitPriceMinor, discountMinor: 0 });
const pricedCart = (lines: PricedLine[]) => ({ lines }) as PricedCart;

describe("pricedLinesInOrder", () => {
  it("gives each line its own priced form, whatever order the priced cart lists them in", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 4 }), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 8 }), fc.integer(), (ids, prices, seed) => {
        const lines = ids.map(line);
        // Some lines unpriced, the rest listed in a shuffled order (or in order, when the seed keeps it).
        const priced = ids
          .filter((_, index) => prices[index] !== 0)
          .map((id, index) => pricedLine(id, prices[index] ?? 1))
          .sort((a, b) => (seed % 3 === 0 ? 0 : ((Math.imul(a.lineId.length + 7, seed) ^ b.unitPriceMinor) & 1) - 0.5));
        const byId = new Map(priced.map((entry) => [entry.lineId, entry]));
        expect(pricedLinesInOrder(lines, pricedCart(priced))).toEqual(lines.map((entry) => byId.get(entry.id)));
      }),
    );
  });

  it("takes the priced cart's own list when it is in the lines' order", () => {
    const priced = pricedCart([pricedLine("a", 1), pricedLine("b", 2)]);
    expect(pricedLinesInOrder([line("a"), line("b")], priced)).toBe(priced.lines);
    expect(pricedLinesInOrder([line("b"), line("a")], priced)).toEqual([priced.lines[1], priced.lines[0]]);
  });

  it("takes a priced cart recorded as priced from an array as it is for that array, and checks any other", () => {
    const lines = [line("a"), line("b")];
    // Listed out of order on purpose: only the record makes it be taken as it is, without the check.
    const priced = pricedInOrder(pricedCart([pricedLine("b", 2), pricedLine("a", 1)]), lines);
    expect(pricedLinesInOrder(lines, priced)).toBe(priced.lines);
    expect(pricedLinesInOrder([...lines], priced)).toEqual([priced.lines[1], priced.lines[0]]);
    // The array grown in place after pricing is checked again.
    lines.push(line("c"));
    expect(pricedLinesInOrder(lines, priced)).toEqual([priced.lines[1], priced.lines[0], undefined]);
  });
});
