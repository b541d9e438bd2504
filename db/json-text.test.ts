import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonText, rememberJsonText } from "./json-text";

/** An object whose text is known, as a cart's answer is (server/services/cart-view.ts). */
const known = (value: Record<string, unknown>) => {
  rememberJsonText(value, JSON.stringify(value));
  return value;
};

describe("jsonText", () => {
  it("writes an envelope around a value whose text is known with that text, not by serialising the value again", () => {
    const cart = known({ id: "cart_1", items: [{ id: "li_1" }] });
    // Changed afterwards, which no answer is once made: the text written is the known one, so this shows it is reused.
    cart.id = "CHANGED";
    expect(jsonText({ cart, cartAccessToken: "ct_x" })).toBe('{"cart":{"id":"cart_1","items":[{"id":"li_1"}]},"cartAccessToken":"ct_x"}');
    expect(jsonText({ cart })).toBe('{"cart":{"id":"cart_1","items":[{"id":"li_1"}]}}');
  });

  it("gives JSON.stringify's text for any small object around known values: key order, left-out members, odd keys", () => {
    const member = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }).map(known),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("__proto__", "0", "1", "10", "toString")), member, { maxKeys: 10 }), (envelope) => {
        expect(jsonText(envelope)).toBe(JSON.stringify(envelope));
      }),
      { numRuns: 500 },
    );
  });

  it("serialises anything else as JSON.stringify does", () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const cart = known({ id: "cart_1" });
    for (const value of [undefined, null, "a", 1, [cart], new Point(1), { when: new Date(0), cart }, { toJSON: () => "t", cart }]) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
  });
});
