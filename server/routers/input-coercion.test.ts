import { describe, expect, it } from "vitest";
import { appRouter } from ".";
import type { StorefrontMeta } from "../trpc/init";

/**
 * trpc-to-openapi turns on coercion (`_def.coerce = true`) for every number, boolean, bigint or date
 * schema it reaches in a REST input's shape, body included, through optional, nullable, default,
 * prefault, lazy and array wrappers and into nested objects (its coerceSchema): then `"false"` is a
 * boolean true and `"2"` a number, for every later parse of that schema object, RPC too. A pipe stops
 * it, which is why every JSON number and boolean is piped (schemas/common.ts). This walks every REST
 * input the way the adapter does and names what it would reach.
 */
type Schema = { _zod: { def: { type: string; innerType?: Schema; element?: Schema; getter?: () => Schema; shape?: Record<string, Schema> } } };

const coercible = new Set(["number", "boolean", "bigint", "date"]);
const wrappers = new Set(["optional", "nullable", "default", "prefault"]);

function unwrapped(schema: Schema): Schema {
  const { def } = schema._zod;
  if (def.type === "array" && def.element) return unwrapped(def.element);
  if (wrappers.has(def.type) && def.innerType) return unwrapped(def.innerType);
  if (def.type === "lazy" && def.getter) return unwrapped(def.getter());
  return schema;
}

function reachable(schema: Schema, at: string): string[] {
  return Object.entries(schema._zod.def.shape ?? {}).flatMap(([name, member]) => {
    const inner = unwrapped(member);
    if (coercible.has(inner._zod.def.type)) return [`${at}.${name} (${inner._zod.def.type})`];
    return inner._zod.def.type === "object" ? reachable(inner, `${at}.${name}`) : [];
  });
}

describe("REST inputs", () => {
  it("leave the adapter no number or boolean to coerce: each is piped", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: StorefrontMeta; inputs?: Schema[] } }>;
    const found: string[] = [];
    let walked = 0;
    for (const [name, procedure] of Object.entries(procedures)) {
      const input = procedure._def.inputs?.[0];
      if (!procedure._def.meta?.openapi || !input) continue;
      const object = unwrapped(input);
      if (object._zod.def.type !== "object") continue;
      walked += 1;
      found.push(...reachable(object, name));
    }
    expect(walked).toBeGreaterThan(30);
    expect(found).toEqual([]);
  });
});
