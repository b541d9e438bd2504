import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inJsonbOrder } from "./jsonb-order";

/** Postgres's own jsonb (PGlite is Postgres) is the reference: the same value, read back. */
let pg: PGlite;
beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
});
afterAll(async () => {
  await pg.close();
});

const readBack = async (value: unknown) => {
  const result = await pg.query<{ text: string }>("select $1::jsonb::text as text", [JSON.stringify(value)]);
  return JSON.stringify(JSON.parse(result.rows[0]?.text ?? "null"));
};

describe("inJsonbOrder", () => {
  it("orders keys as jsonb gives them back, at any depth, and keeps arrays' order", async () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", "b", "ab", "Z", "é", "日本", "__proto__", "addressString", "addressData"));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(key.filter((k) => !k.includes("\u0000")), tie("node"), { maxKeys: 5 })),
    })).node;
    await fc.assert(
      fc.asyncProperty(value, async (input) => {
        expect(JSON.stringify(inJsonbOrder(input))).toBe(await readBack(input));
      }),
      { numRuns: 300 },
    );
  });
});
