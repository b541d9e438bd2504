import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine, PricedLine } from "../domain/cart-types";
import type { Currency } from "../domain/money";
import type { CartView } from "../schemas/cart";
import { cartItems, type RenderedItem } from "./cart-items";

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

type Step =
  | { kind: "merge"; at: number }
  | { kind: "append" }
  | { kind: "remove"; at: number }
  | { kind: "reprice"; at: number; unit: number }
  | { kind: "discountAll"; discount: number }
  | { kind: "currency"; currency: Currency }
  | { kind: "pushInPlace" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("merge" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("append" as const) }),
  fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("reprice" as const), at: fc.nat(), unit: fc.constantFrom(100, 250) }),
  fc.record({ kind: fc.constant("discountAll" as const), discount: fc.constantFrom(0, 5) }),
  fc.record({ kind: fc.constant("currency" as const), currency: fc.constantFrom<Currency>("usd", "gbp") }),
  fc.record({ kind: fc.constant("pushInPlace" as const) }),
);

describe("cart items (the answer's items, changed from the array before)", () => {
  it("are every line rendered in order, and their JSON, after any sequence of changes", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 10 }), fc.array(stepArb, { maxLength: 25 }), (start, steps) => {
        let lines = start.map((quantity) => line(quantity));
        let unit = lines.map(() => 100);
        let discount = 0;
        let currency: Currency = "usd";
        const check = () => {
          const pricedLines = priced(lines, unit, discount);
          const expected = lines.map((each, index) => renderWith(currency)(each, unit[index] ?? 0, pricedLines[index]?.totalMinor ?? 0, discount).item);
          const answered = cartItems(lines, pricedLines, currency, renderWith(currency));
          expect(answered.items).toEqual(expected);
          expect(answered.text).toBe(JSON.stringify(expected));
        };
        check();
        for (const step of steps) {
          const at = lines.length === 0 ? 0 : ("at" in step ? step.at : 0) % lines.length;
          if (step.kind === "merge") lines = lines.map((each, index) => (index === at ? { ...each, quantity: each.quantity + 1 } : each));
          else if (step.kind === "append") {
            lines = [...lines, line(1)];
            unit = [...unit, 100];
          } else if (step.kind === "remove") {
            lines = lines.filter((_, index) => index !== at);
            unit = unit.filter((_, index) => index !== at);
          } else if (step.kind === "reprice") {
            unit = unit.map((each, index) => (index === at ? step.unit : each));
            lines = [...lines];
          } else if (step.kind === "discountAll") {
            discount = step.discount;
            lines = [...lines];
          } else if (step.kind === "currency") {
            currency = step.currency;
            lines = [...lines];
          } else {
            // The array rendered before is changed in place: what was made of it must not be taken for it.
            lines.push(line(2));
            unit.push(100);
          }
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
