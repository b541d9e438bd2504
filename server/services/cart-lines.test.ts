import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { statementText } from "../../db/fragment";
import type { CartLine, PricedCart, PricedLine } from "../domain/cart-types";
import { lineWrites, wholeCartLineWrites } from "./cart-lines";

let made = 0;
function line(quantity = 1): CartLine {
  made += 1;
  return { id: `li_${made}`, productId: "p", name: "", description: "", imageUrl: "", categoryId: "c", quantity, basePriceMinor: 100, selections: [], specialInstructions: "", itemUnavailableAction: "remove_item" };
}

const pricedOf = (lines: readonly CartLine[], unit: (line: CartLine) => number) =>
  ({ lines: lines.map((each): PricedLine => ({ lineId: each.id, unitPriceMinor: unit(each), totalMinor: unit(each) * each.quantity, discountMinor: 0 })) }) as PricedCart;

const sql = (writes: ReturnType<typeof lineWrites>) => writes.map((write) => statementText(write));

type Step = { kind: "merge" | "remove" | "insertAt" | "move" | "reprice"; at: number; to: number } | { kind: "append" | "none" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom("merge" as const, "remove" as const, "insertAt" as const, "move" as const, "reprice" as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constantFrom("append" as const, "none" as const) }),
);

describe("lineWrites", () => {
  it("writes what comparing every line of both carts writes, for any change", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(stepArb, { minLength: 1, maxLength: 3 }), fc.boolean(), (size, steps, reorderedPriced) => {
        const before = Array.from({ length: size }, () => line());
        let after = [...before];
        const repriced = new Set<string>();
        for (const step of steps) {
          const at = after.length === 0 ? 0 : ("at" in step ? step.at : 0) % after.length;
          const to = after.length === 0 ? 0 : ("to" in step ? step.to : 0) % after.length;
          if (step.kind === "merge" && after.length > 0) after = after.map((each, index) => (index === at ? { ...each, quantity: each.quantity + 1 } : each));
          else if (step.kind === "remove") after = after.filter((_, index) => index !== at);
          else if (step.kind === "append") after = [...after, line()];
          else if (step.kind === "insertAt") after = [...after.slice(0, at), line(), ...after.slice(at)];
          else if (step.kind === "move" && after.length > 0) {
            const moved = after[at];
            const rest = after.filter((_, index) => index !== at);
            after = moved ? [...rest.slice(0, to), moved, ...rest.slice(to)] : rest;
          } else if (step.kind === "reprice" && after[at]) repriced.add(after[at].id);
        }
        const beforeCart = { lines: before, priced: pricedOf(before, () => 100) };
        const afterPriced = pricedOf(after, (each) => (repriced.has(each.id) ? 250 : 100));
        // A priced cart read back may list its lines in another order: both ways must write the same.
        const afterCart = { lines: after, priced: reorderedPriced ? ({ ...afterPriced, lines: [...afterPriced.lines].reverse() }) : afterPriced };
        expect(sql(lineWrites("cart_1", beforeCart, afterCart))).toEqual(sql(wholeCartLineWrites("cart_1", beforeCart, afterCart)));
      }),
      { numRuns: 500 },
    );
  });

  it("writes one row for a merge into one line of a 100-line cart, and none when nothing changed", () => {
    const before = Array.from({ length: 100 }, () => line());
    const after = before.map((each, index) => (index === 57 ? { ...each, quantity: 2 } : each));
    const beforeCart = { lines: before, priced: pricedOf(before, () => 100) };
    const writes = sql(lineWrites("cart_1", beforeCart, { lines: after, priced: pricedOf(after, () => 100) }));
    expect(writes).toHaveLength(1);
    expect(JSON.stringify(writes[0]?.params)).toContain(JSON.stringify(JSON.stringify(after[57]?.id)).slice(1, -1));
    expect(lineWrites("cart_1", beforeCart, { lines: [...before], priced: pricedOf(before, () => 100) })).toEqual([]);
  });
});
