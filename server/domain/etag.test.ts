import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cartEtag, parseIfMatch } from "./etag";

describe("cartEtag", () => {
  it("renders a strong ETag", () => {
    expect(cartEtag(0)).toBe('"cart-0"');
    expect(cartEtag(12)).toBe('"cart-12"');
  });

  it("round-trips through parseIfMatch for every safe revision", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (revision) => {
        expect(parseIfMatch(cartEtag(revision))).toEqual({ kind: "revision", revision });
        expect(parseIfMatch(`W/${cartEtag(revision)}`)).toEqual({ kind: "revision", revision });
      }),
    );
  });
});

describe("parseIfMatch", () => {
  it.each([
    ['"cart-0"', 0],
    ['"cart-1"', 1],
    ['W/"cart-12"', 12],
    ['  "cart-7"  ', 7],
    ['\tW/"cart-7"\n', 7],
    ['"cart-9007199254740991"', Number.MAX_SAFE_INTEGER],
  ])("%j -> revision %d", (header, revision) => {
    expect(parseIfMatch(header)).toEqual({ kind: "revision", revision });
  });

  it.each([
    ['"cart-01"', "leading zero"],
    ['"cart-00"', "leading zeros"],
    ["cart-1", "missing quotes"],
    ['"cart-1', "missing closing quote"],
    ["cart-1\"", "missing opening quote"],
    ["'cart-1'", "single quotes"],
    ['"cart--1"', "negative"],
    ['"cart-"', "no revision"],
    ['"cart-1.5"', "fraction"],
    ['"cart-1e3"', "exponent"],
    ['"cart-+1"', "sign"],
    ['"cart- 1"', "inner space"],
    ['W/ "cart-1"', "space after W/"],
    ['w/"cart-1"', "lower-case weak prefix"],
    ['"basket-1"', "other prefix"],
    ['"cart-9007199254740992"', "2^53"],
    ['"cart-9999999999999999"', "16 digits above 2^53 - 1"],
    ['"cart-12345678901234567"', "17 digits"],
    ["*", "wildcard"],
    ['"cart-1", "cart-2"', "list"],
    ['"cart-1","cart-1"', "list without space"],
    ["W/", "weak prefix alone"],
    ['""', "empty tag"],
  ])("%j is malformed (%s)", (header) => {
    expect(parseIfMatch(header)).toEqual({ kind: "malformed" });
  });

  it.each([
    [null, "null"],
    [undefined, "undefined"],
    ["", "empty"],
    ["   ", "blank"],
    ["\t\n", "whitespace"],
  ])("%j is missing (%s)", (header, _reason) => {
    expect(parseIfMatch(header)).toEqual({ kind: "missing" });
  });
});
