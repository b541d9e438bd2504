import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine } from "../domain/cart-types";
import { quoteLinesText } from "./quote-lines";

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
const priceArb = fc.constantFrom(100, 250);

type Step =
  | { kind: "merge"; at: number; quantity: number }
  | { kind: "append"; productId: string; quantity: number }
  | { kind: "remove"; at: number }
  | { kind: "reprice"; at: number; price: number }
  | { kind: "replaceAll"; productId: string }
  | { kind: "pushInPlace"; productId: string }
  | { kind: "same" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("merge" as const), at: fc.nat(), quantity: quantityArb }),
  fc.record({ kind: fc.constant("append" as const), productId: productArb, quantity: quantityArb }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("reprice" as const), at: fc.nat(), price: priceArb }),
  fc.record({ kind: fc.constant("replaceAll" as const), productId: productArb }),
  fc.record({ kind: fc.constant("pushInPlace" as const), productId: productArb }),
  fc.constant({ kind: "same" as const }),
);

describe("quote lines (the sorted multiset a quote fingerprints)", () => {
  it("is the sorted list's JSON after any sequence of changes, each made from the array before", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(productArb, quantityArb), { maxLength: 14 }), fc.array(stepArb, { maxLength: 25 }), (start, steps) => {
        let lines: CartLine[] = start.map(([productId, quantity]) => line(productId, quantity));
        let prices: number[] = lines.map(() => 100);
        expect(quoteLinesText(lines, prices)).toBe(reference(lines, prices));
        for (const step of steps) {
          const at = lines.length === 0 ? 0 : ("at" in step ? step.at : 0) % lines.length;
          switch (step.kind) {
            case "merge":
              // A new object for the changed line, the others kept (as cart-operations.ts changes a cart).
              lines = lines.map((existing, index) => (index === at ? { ...existing, quantity: existing.quantity + step.quantity } : existing));
              break;
            case "append":
              lines = [...lines, line(step.productId, step.quantity)];
              prices = [...prices, 100];
              break;
            case "remove":
              lines = lines.filter((_, index) => index !== at);
              prices = prices.filter((_, index) => index !== at);
              break;
            case "reprice":
              // The same line objects at another unit price (a catalog change).
              prices = prices.map((price, index) => (index === at ? step.price : price));
              lines = [...lines];
              break;
            case "replaceAll":
              lines = lines.map((existing) => ({ ...existing, productId: step.productId }));
              break;
            case "pushInPlace":
              // The array priced before is changed in place: what was made of it must not be taken as its text.
              lines.push(line(step.productId, 1));
              prices.push(100);
              break;
            case "same":
              break;
          }
          expect(quoteLinesText(lines, prices)).toBe(reference(lines, prices));
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
