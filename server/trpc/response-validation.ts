import type { AnyRouter } from "@trpc/server";

/**
 * Response validation: every procedure declares its output schema (`.output()`), which types the
 * client and documents the response in the OpenAPI document, and which tRPC also runs against every
 * response. That check is on in development and tests, where the integration suite validates every
 * response against the OpenAPI document as well; in production it is off by default
 * (VALIDATE_RESPONSES), because re-parsing a whole cart or menu after the service built it from
 * typed rows is a fifth of the transport's cost per request and can only turn a bug that the
 * suite exists to catch into a 500.
 *
 * tRPC has no switch for this: `.output()` adds a middleware tagged `_type: "output"` to the
 * procedure's `_def.middlewares`, which tRPC reads on every call. Switching off removes exactly those
 * middlewares (the schemas stay, so types and the OpenAPI document are unchanged); switching on puts
 * the originals back. Both throw if tRPC's internals stop looking like this, so an upgrade that
 * changes them fails the tests instead of silently validating or not.
 */
type Middleware = { _type?: string };
type ProcedureDef = { middlewares: Middleware[]; output?: unknown };

const originals = new WeakMap<ProcedureDef, Middleware[]>();

function procedureDefs(router: AnyRouter): ProcedureDef[] {
  return Object.values(router._def.procedures as Record<string, { _def?: Partial<ProcedureDef> }>).map((procedure) => {
    const def = procedure._def;
    if (!def || !Array.isArray(def.middlewares)) throw new Error("tRPC procedure without _def.middlewares: response validation cannot be configured");
    return def as ProcedureDef;
  });
}

export function setResponseValidation(router: AnyRouter, enabled: boolean): void {
  for (const def of procedureDefs(router)) {
    const original = originals.get(def) ?? def.middlewares;
    originals.set(def, original);
    const outputs = original.filter((middleware) => middleware._type === "output").length;
    if (def.output !== undefined && outputs !== 1) throw new Error(`a procedure with an output schema has ${outputs} output middlewares: tRPC internals changed`);
    def.middlewares = enabled ? original : original.filter((middleware) => middleware._type !== "output");
  }
}
