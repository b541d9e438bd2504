import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine } from "../domain/cart-types";
import { ByEndLines, changedRange, ListText } from "./list-text";

// Items' texts of any content and length, the empty one and commas included: the list only places them.
const itemArb = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"x"', "{}", ",", "[]", ""));

describe("ListText", () => {
  it("is `[` + the items joined by commas + `]` after any splices", () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(itemArb, { maxLength: 3 })), { maxLength: 12 }),
        (start, splices) => {
          const model = [...start];
          let list = ListText.of(start);
          expect(list.text).toBe(`[${model.join(",")}]`);
          for (const [position, deleteCount, inserted] of splices) {
            const at = position % (model.length + 1);
            const deleted = Math.min(deleteCount, model.length - at);
            model.splice(at, deleted, ...inserted);
            list = list.splice(at, deleted, inserted);
            expect(list.text).toBe(`[${model.join(",")}]`);
            expect(list.count).toBe(model.length);
          }
        },
      ),
    );
  });

  it("leaves the list it was made from as it was", () => {
    const before = ListText.of(['"a"', '"b"', '"c"']);
    const after = before.splice(1, 1, ['"x"', '"y"']);
    expect(after.text).toBe('["a","x","y","c"]');
    expect(before.text).toBe('["a","b","c"]');
    expect(before.splice(3, 0, ['"d"']).text).toBe('["a","b","c","d"]');
  });
});

describe("changedRange", () => {
  it("names the one run that differs between two lists sharing a start and an end", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 4 })), fc.array(fc.nat({ max: 4 })), fc.array(fc.nat({ max: 4 })), fc.array(fc.nat({ max: 4 })), (head, removed, added, tail) => {
        const before = [...head, ...removed, ...tail];
        const after = [...head, ...added, ...tail];
        const range = changedRange(before.length, after.length, (index, indexBefore) => after[index] === before[indexBefore]);
        if (range === undefined) {
          expect(after).toEqual(before);
          return;
        }
        // Replacing that run of `before` with that run of `after` gives `after`, and the runs are no longer than what changed.
        expect([...before.slice(0, range.start), ...after.slice(range.start, range.end), ...before.slice(range.endBefore)]).toEqual(after);
        expect(range.endBefore - range.start).toBeLessThanOrEqual(removed.length);
        expect(range.end - range.start).toBeLessThanOrEqual(added.length);
      }),
    );
  });
});

describe("ByEndLines", () => {
  const line = (id: string) => ({ id }) as CartLine;
  const made = (lines: CartLine[]) => ({ lines });

  it("finds what was kept for an array from a later array that shares its first or its last line", () => {
    const [a, b, c, d] = [line("a"), line("b"), line("c"), line("d")];
    const kept = new ByEndLines<{ lines: CartLine[] }>();
    const abc = made([a, b, c]);
    kept.set(abc, undefined);
    expect(kept.get([a, d, c])).toBe(abc);
    expect(kept.get([d, b, c])).toBe(abc);
    expect(kept.get([d, b, d])).toBeUndefined();
    expect(kept.get([])).toBeUndefined();
  });

  it("forgets the basis at both its ends, unless a later one has taken an end", () => {
    const [a, b, c, d] = [line("a"), line("b"), line("c"), line("d")];
    const kept = new ByEndLines<{ lines: CartLine[] }>();
    const ab = made([a, b]);
    kept.set(ab, undefined);
    const abc = made([a, b, c]);
    kept.set(abc, kept.get(abc.lines));
    expect(kept.get([a])).toBe(abc);
    // Its old last line no longer leads to the basis, which would otherwise live as long as that line.
    expect(kept.get([b])).toBeUndefined();
    // Made from a basis whose end another has since taken: that end stays with the other.
    const dc = made([d, c]);
    kept.set(dc, ab);
    expect(kept.get([c])).toBe(dc);
    expect(kept.get([a])).toBe(abc);
  });

  it("keeps only the latest of a cart built one line at a time (not every list it ever was)", async () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const kept = new ByEndLines<{ lines: CartLine[] }>();
    const refs: WeakRef<object>[] = [];
    let lines: CartLine[] = [];
    const held: CartLine[][] = [];
    for (let count = 1; count <= 20; count += 1) {
      lines = [...lines, line(`l${count}`)];
      held.push(lines);
      const next = made([...lines]);
      kept.set(next, kept.get(lines));
      refs.push(new WeakRef(next));
    }
    // A WeakRef holds its target to the end of the current job: collect in a later one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collect();
    expect(held).toHaveLength(20);
    expect(refs.map((ref) => ref.deref() !== undefined)).toEqual([...Array<boolean>(19).fill(false), true]);
  });
});
