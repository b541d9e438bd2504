import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { runInThisContext } from "node:vm";
import { describe, expect, it } from "vitest";

/**
 * patches/@trpc+server+11.25.2.patch: tRPC's spread helper copies with Object.assign. These read the
 * installed package (both module formats), so they fail if the patch is missing, and check the claim
 * the patch rests on: for the arguments tRPC passes, the result is what Babel's helper built.
 */
const dist = join(dirname(createRequire(import.meta.url).resolve("@trpc/server")), "..", "dist");
const chunks = readdirSync(dist).filter((name) => /^getErrorShape-.*\.(mjs|cjs)$/.test(name));

type Spread = (...objects: unknown[]) => Record<PropertyKey, unknown>;

function helperOf(source: string): Spread {
  const start = source.indexOf("function _objectSpread2(");
  const end = source.indexOf("\n}\n", start);
  return runInThisContext(`(${source.slice(start, end + 2)})`) as Spread;
}

/** Babel's objectSpread2 as tRPC 11.25.2 ships it unpatched, written out here: the installed copy is the patched one. */
function babelSpread(e: Record<PropertyKey, unknown>, ...rest: unknown[]): Record<PropertyKey, unknown> {
  rest.forEach((argument, index) => {
    const source = argument ?? {};
    if (index % 2 === 0) {
      for (const key of [...Object.keys(source), ...Object.getOwnPropertySymbols(source).filter((symbol) => Object.getOwnPropertyDescriptor(source, symbol)?.enumerable)]) {
        Object.defineProperty(e, key, { value: (source as Record<PropertyKey, unknown>)[key], enumerable: true, configurable: true, writable: true });
      }
    } else Object.defineProperties(e, Object.getOwnPropertyDescriptors(source));
  });
  return e;
}

describe("@trpc/server's spread helper (patched)", () => {
  it("copies with Object.assign in both module formats", () => {
    expect(chunks.map((name) => name.split(".").pop()).sort()).toEqual(["cjs", "mjs"]);
    for (const name of chunks) expect(readFileSync(join(dist, name), "utf8")).toContain("else Object.assign(e, t);");
  });

  it("builds what Babel's helper built, for the arguments tRPC passes", () => {
    const symbol = Symbol("own");
    const ctx = JSON.parse('{"requestId":"req_1","__proto__":{"polluted":true},"deps":{}}') as Record<string, unknown>;
    Object.defineProperty(ctx, symbol, { value: 1, enumerable: true });
    Object.defineProperty(ctx, "hidden", { value: 2, enumerable: false });
    const cases: unknown[][] = [
      [ctx],
      [ctx, {}, { credential: { cartToken: "t" }, requestId: "req_2" }],
      [null],
      [ctx, undefined, { next: () => undefined }],
      [{ a: 1 }, { b: 2 }, { a: 3 }, { c: 4 }],
    ];
    for (const name of chunks) {
      const spread = helperOf(readFileSync(join(dist, name), "utf8"));
      for (const rest of cases) {
        const patched = spread({}, ...rest);
        const original = babelSpread({}, ...rest);
        expect(Reflect.ownKeys(patched)).toEqual(Reflect.ownKeys(original));
        for (const key of Reflect.ownKeys(original)) expect(Object.getOwnPropertyDescriptor(patched, key)).toEqual(Object.getOwnPropertyDescriptor(original, key));
        expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
        expect(patched).not.toHaveProperty("polluted");
      }
    }
  });
});
