import fc from "fast-check";
import type { CartLine } from "../server/domain/cart-types";

/**
 * Random changes of a cart's lines array as the service makes them (a new array, new objects for the
 * lines it changes, the others kept), for model tests of what is made from the array a change came
 * from (server/services/quote-lines.ts, cart-items.ts, cart-lines.ts), and one the service never
 * makes but such code must survive: the array priced before, changed in place.
 */
export type LinesState = { lines: CartLine[]; prices: number[] };

export type LineChange =
  | { kind: "merge"; at: number }
  | { kind: "append"; productId: string }
  | { kind: "remove"; at: number }
  | { kind: "reprice"; at: number; price: number }
  | { kind: "pushInPlace"; productId: string }
  | { kind: "same" };

export function lineChangeArb(productArb: fc.Arbitrary<string>): fc.Arbitrary<LineChange> {
  return fc.oneof(
    fc.record({ kind: fc.constant("merge" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("append" as const), productId: productArb }),
    fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("reprice" as const), at: fc.nat(), price: fc.constantFrom(100, 250) }),
    fc.record({ kind: fc.constant("pushInPlace" as const), productId: productArb }),
    fc.constant({ kind: "same" as const }),
  );
}

/** The state after `change`; `line` makes a new line of a product. */
export function applyLineChange(state: LinesState, change: LineChange, line: (productId: string) => CartLine): LinesState {
  const { lines, prices } = state;
  const at = lines.length === 0 ? 0 : ("at" in change ? change.at : 0) % lines.length;
  switch (change.kind) {
    case "merge":
      return { lines: lines.map((each, index) => (index === at ? { ...each, quantity: each.quantity + 1 } : each)), prices };
    case "append":
      return { lines: [...lines, line(change.productId)], prices: [...prices, 100] };
    case "remove":
      return { lines: lines.filter((_, index) => index !== at), prices: prices.filter((_, index) => index !== at) };
    case "reprice":
      // The same line objects at another unit price (a catalog change), in a new array.
      return { lines: [...lines], prices: prices.map((price, index) => (index === at ? change.price : price)) };
    case "pushInPlace":
      lines.push(line(change.productId));
      prices.push(100);
      return { lines, prices };
    case "same":
      return state;
  }
}
