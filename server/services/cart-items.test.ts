import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine, PricedLine } from "../domain/cart-types";
import type { Currency } from "../domain/money";
import type { CartView } from "../schemas/cart";
import { cartItems, type RenderedItem } from "./cart-items";
import { applyLineChange, lineChangeArb, type LineChange, type LinesState } from "../../test/line-changes";

type Item = CartView["items"][number];

let made = 0;
function line(quantity: number): CartLine {
  made += 1;
  return { id: `li_${made}`, productId: "p", name: "", description: "", imageUrl: "", categoryId: "c", quantity, basePriceMinor: 100, selections: [], specialInstructions: "", itemUnavailableAction: "remove_item" };
}

/** Stands for cart-view's rendering: every input it depends on shows in the item. */
function renderWith(currency: Currency) {
  return (rendered: CartLine, unit: number, total: number, discount: number): RenderedItem => {
    const item = { id: rendered.id, quantity: rendered.quantity, price: `${currency} ${unit}`, total: String(total), discount: String(discount) } as unknown as Item;
    return { item, text: JSON.stringify(item) };
  };
}

function priced(lines: readonly CartLine[], unit: readonly number[], discount: number): PricedLine[] {
  return lines.map((each, index) => ({ lineId: each.id, unitPriceMinor: unit[index] ?? 0, totalMinor: (unit[index] ?? 0) * each.quantity, discountMinor: discount }));
}

type Step = LineChange | { kind: "discountAll"; discount: number } | { kind: "currency"; currency: Currency };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  lineChangeArb(fc.constant("p")),
  fc.record({ kind: fc.constant("discountAll" as const), discount: fc.constantFrom(0, 5) }),
  fc.record({ kind: fc.constant("currency" as const), currency: fc.constantFrom<Currency>("usd", "gbp") }),
);

describe("cart items (the answer's items, changed from the array before)", () => {
  it("are every line rendered in order, and their JSON, after any sequence of changes", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 10 }), fc.array(stepArb, { maxLength: 25 }), (start, steps) => {
        let state: LinesState = { lines: start.map((quantity) => line(quantity)), prices: start.map(() => 100) };
        let discount = 0;
        let currency: Currency = "usd";
        const check = () => {
          const { lines, prices } = state;
          const pricedLines = priced(lines, prices, discount);
          const expected = lines.map((each, index) => renderWith(currency)(each, prices[index] ?? 0, pricedLines[index]?.totalMinor ?? 0, discount).item);
          const answered = cartItems(lines, pricedLines, currency, renderWith(currency));
          expect(answered.items).toEqual(expected);
          expect(answered.text).toBe(JSON.stringify(expected));
        };
        check();
        for (const step of steps) {
          // An all-line discount or another currency: the same line objects, in a new array.
          if (step.kind === "discountAll") discount = step.discount;
          else if (step.kind === "currency") currency = step.currency;
          state = step.kind === "discountAll" || step.kind === "currency" ? { lines: [...state.lines], prices: state.prices } : applyLineChange(state, step, () => line(1));
          check();
        }
      }),
    );
  });

  it("renders only the changed line of a 100-line cart", () => {
    let lines = Array.from({ length: 100 }, () => line(1));
    const unit = lines.map(() => 100);
    let renders = 0;
    const counting = (each: CartLine, a: number, b: number, c: number) => {
      renders += 1;
      return renderWith("usd")(each, a, b, c);
    };
    cartItems(lines, priced(lines, unit, 0), "usd", counting);
    expect(renders).toBe(100);
    lines = lines.map((each, index) => (index === 40 ? { ...each, quantity: 2 } : each));
    const answered = cartItems(lines, priced(lines, unit, 0), "usd", counting);
    expect(renders).toBe(101);
    expect(JSON.parse(answered.text)).toEqual(answered.items);
  });
});
