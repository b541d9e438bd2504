import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine } from "../domain/cart-types";
import { quoteLinesText } from "./quote-lines";
import { applyLineChange, lineChangeArb, type LineChange, type LinesState } from "../../test/line-changes";

/** What the quote lines must equal: every line's text, sorted, as one JSON list (the digest stored quotes were made with). */
function reference(lines: readonly CartLine[], unitPrices: readonly number[]): string {
  const texts = lines.map((line, index) =>
    JSON.stringify({
      productId: line.productId,
      quantity: line.quantity,
      unitPriceMinor: unitPrices[index] ?? 0,
      selections: line.selections.map((s) => `${s.modifierGroupId}/${s.optionId}x${s.quantity}@${s.priceMinor}`).sort(),
    }),
  );
  return JSON.stringify(texts.sort());
}

let made = 0;
function line(productId: string, quantity: number): CartLine {
  made += 1;
  return {
    id: `li_${made}`,
    productId,
    name: "",
    description: "",
    imageUrl: "",
    categoryId: "cat",
    quantity,
    basePriceMinor: 100,
    selections: [],
    specialInstructions: "",
    itemUnavailableAction: "remove_item",
  };
}

// Few products and quantities, so that lines of equal text (the same product, quantity and price) are common.
const productArb = fc.constantFrom("p_a", "p_b", "p_c", 'p_"q"', "p_\u00e9", "p_\ud83d\ude00");
const quantityArb = fc.integer({ min: 1, max: 3 });

type Step = LineChange | { kind: "replaceAll"; productId: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(lineChangeArb(productArb), fc.record({ kind: fc.constant("replaceAll" as const), productId: productArb }));

describe("quote lines (the sorted multiset a quote fingerprints)", () => {
  it("is the sorted list's JSON after any sequence of changes, each made from the array before", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(productArb, quantityArb), { maxLength: 14 }), fc.array(stepArb, { maxLength: 25 }), (start, steps) => {
        let state: LinesState = { lines: start.map(([productId, quantity]) => line(productId, quantity)), prices: start.map(() => 100) };
        expect(quoteLinesText(state.lines, state.prices)).toBe(reference(state.lines, state.prices));
        for (const step of steps) {
          state =
            step.kind === "replaceAll"
              ? { lines: state.lines.map((existing) => ({ ...existing, productId: step.productId })), prices: state.prices }
              : applyLineChange(state, step, (productId) => line(productId, 1));
          expect(quoteLinesText(state.lines, state.prices)).toBe(reference(state.lines, state.prices));
        }
      }),
    );
  });

  it("places the changed line of a 100-line cart among the others, equal texts included", () => {
    let lines = Array.from({ length: 100 }, (_, index) => line(`p_${index % 7}`, 1 + (index % 3)));
    const prices = lines.map((_, index) => 100 + (index % 2) * 50);
    expect(quoteLinesText(lines, prices)).toBe(reference(lines, prices));
    for (const at of [0, 99, 50, 3, 3, 0, 99]) {
      lines = lines.map((existing, index) => (index === at ? { ...existing, quantity: existing.quantity + 1 } : existing));
      expect(quoteLinesText(lines, prices)).toBe(reference(lines, prices));
    }
  });

  it("is an empty list for no lines", () => {
    expect(quoteLinesText([], [])).toBe("[]");
  });
});
