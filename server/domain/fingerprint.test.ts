import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint, sha256Hex } from "./fingerprint";

/** JSON-like values whose leaves can always be changed into a different canonical form. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const jsonArb: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.string({ maxLength: 8 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 5 }),
  ),
})).value;

function isRecord(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Same value with the members of every object inserted in an order driven by `seed`. */
function shuffleKeys(value: Json, seed: number): Json {
  if (Array.isArray(value)) return value.map((item, index) => shuffleKeys(item, seed + index + 1));
  if (!isRecord(value)) return value;
  const entries = Object.entries(value);
  const shuffled = entries
    .map((entry, index) => ({ entry, rank: Math.imul(index + 1, 2654435761 ^ seed) >>> 0 }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ entry: [key, member] }, index): [string, Json] => [key, shuffleKeys(member, seed * 31 + index)]);
  // Object.fromEntries defines own properties, so a "__proto__" key stays a plain member.
  return Object.fromEntries<Json>(shuffled);
}

/** Paths to every leaf (scalars, empty arrays and empty objects). */
function leafPaths(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    return value.length === 0 ? [path] : value.flatMap((item, index) => leafPaths(item, [...path, index]));
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return keys.length === 0 ? [path] : keys.flatMap((key) => leafPaths(value[key] ?? null, [...path, key]));
  }
  return [path];
}

function changeLeaf(leaf: Json): Json {
  if (leaf === null) return 0;
  if (typeof leaf === "boolean") return !leaf;
  if (typeof leaf === "number") return leaf + 1;
  if (typeof leaf === "string") return `${leaf}x`;
  if (Array.isArray(leaf)) return [null];
  return { changed: true };
}

function withChangedLeaf(value: Json, path: readonly (string | number)[]): Json {
  const [head, ...rest] = path;
  if (head === undefined) return changeLeaf(value);
  if (Array.isArray(value) && typeof head === "number") {
    return value.map((item, index) => (index === head ? withChangedLeaf(item, rest) : item));
  }
  if (isRecord(value) && typeof head === "string") {
    return Object.fromEntries<Json>(
      Object.entries(value).map(([key, member]): [string, Json] => [key, key === head ? withChangedLeaf(member, rest) : member]),
    );
  }
  throw new Error(`bad path ${JSON.stringify(path)}`);
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and writes no whitespace", () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }], c: "x" } };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}');
  });

  it("sorts by code unit, not by locale", () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, _: 4, "10": 5, "9": 6 })).toBe('{"10":5,"9":6,"B":2,"_":4,"a":3,"b":1}');
  });

  it("drops undefined object members, but keeps null", () => {
    expect(canonicalJson({ a: undefined, b: null, c: { d: undefined } })).toBe('{"b":null,"c":{}}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });

  it("writes undefined array items and a bare undefined as null, like JSON.stringify", () => {
    expect(canonicalJson([1, undefined, 2])).toBe("[1,null,2]");
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("serialises scalars as JSON", () => {
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(true)).toBe("true");
    expect(canonicalJson(12.5)).toBe("12.5");
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
  });

  it("preserves array order", () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it("is stable and parses back to an equal value", () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(value)).toBe(text);
        expect(JSON.parse(text)).toEqual(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});

/** canonicalJson as first written (entries filtered, sorted and joined at each level): stored fingerprints were made with it. */
function arrayBuiltCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => arrayBuiltCanonicalJson(item === undefined ? null : item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${arrayBuiltCanonicalJson(member)}`).join(",")}}`;
}

describe("canonicalJson's text", () => {
  it("is the text the array-built version wrote, for any JSON value and undefined members", () => {
    const withUndefined = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof({ depthSize: "small" }, jsonArb, fc.constant(undefined), fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 5 })),
    })).value;
    fc.assert(fc.property(withUndefined, (value) => canonicalJson(value) === arrayBuiltCanonicalJson(value)), { numRuns: 500 });
  });

  it("is that text for a list of strings (a quote's lines), any code units included", () => {
    const anyString = fc.string({ unit: "binary", maxLength: 40 });
    fc.assert(fc.property(fc.array(anyString, { maxLength: 20 }), (value) => canonicalJson(value) === arrayBuiltCanonicalJson(value)), { numRuns: 500 });
  });
});

describe("fingerprint", () => {
  it("is the SHA-256 of the canonical JSON as 64 lower-case hex digits", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(fingerprint({ b: 2, a: 1 })).toBe(sha256Hex('{"a":1,"b":2}'));
    expect(fingerprint({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is always 64 lower-case hex digits", () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        expect(fingerprint(value)).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it("is the same for a copy with keys in another order", () => {
    fc.assert(
      fc.property(jsonArb, fc.integer(), (value, seed) => {
        const shuffled = shuffleKeys(value, seed);
        expect(shuffled).toEqual(value);
        expect(fingerprint(shuffled)).toBe(fingerprint(value));
      }),
    );
  });

  it("is the same for a reversed-key copy (explicit example)", () => {
    expect(fingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprint({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it("changes when any leaf changes", () => {
    fc.assert(
      fc.property(
        jsonArb.chain((value) => {
          const paths = leafPaths(value);
          return fc.tuple(fc.constant(value), fc.constantFrom(...paths));
        }),
        ([value, path]) => {
          expect(fingerprint(withChangedLeaf(value, path))).not.toBe(fingerprint(value));
        },
      ),
    );
  });
});
