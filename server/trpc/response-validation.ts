import { z } from "zod";

/**
 * Response validation: every procedure declares its output schema, which types the client and
 * documents the response in the OpenAPI document, and which tRPC also runs against every response.
 * That check is on in development and tests, where the integration suite validates every response
 * against the OpenAPI document as well; in production it is off by default (VALIDATE_RESPONSES),
 * because re-parsing a whole cart or menu after the service built it from typed rows is a fifth of
 * the transport's cost per request and can only turn a bug that the suite exists to catch into a 500.
 *
 * Why it is done this way, with public APIs only: tRPC has no switch, and `.output(schema)` always
 * checks with the schema it is given, through the schema's own `parse` (tRPC prefers `parse` /
 * `parseAsync` to Standard Schema's `~standard.validate` when both exist, as on every zod schema).
 * That same object is what trpc-to-openapi documents, so it must be a zod schema that documents
 * exactly as the original. A pass-through validator plus a checking middleware would leave the
 * document nothing to read; a Proxy, a copy or a `clone()` is a different schema to zod's JSON Schema
 * generator (a clone is emitted after its children, which reorders the components). So `.output()`
 * gets `responseSchema(schema)`: `z.lazy(() => schema)`, which the generator emits as the original
 * itself (same $ref ids, metadata and component order; the document is byte-identical) and which
 * types the client as the original, with the entry points a validator library calls (`parse`,
 * `parseAsync`, `~standard`) answering by the switch: on, they are the original's; off, they return
 * the value as the service built it. (Not for `z.void()` outputs, which trpc-to-openapi recognises
 * by type; no procedure has one.) The switch is per module instance, like the router it configures:
 * server/routers/index.ts sets it where the router is built.
 */
let validating = true;

const responseSchemas = new WeakSet<object>();

export function setResponseValidation(enabled: boolean): void {
  validating = enabled;
}

export function responseValidationEnabled(): boolean {
  return validating;
}

/** Whether a procedure's declared output went through responseSchema (for the router's test). */
export function isResponseSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && responseSchemas.has(value);
}

/** The output schema to declare with `.output()`: `schema` itself, checked only while validation is on. */
export function responseSchema<Schema extends z.ZodType>(schema: Schema): z.ZodLazy<Schema> {
  type Output = z.output<Schema>;
  const declared = z.lazy(() => schema);
  declared.parse = (data, params) => (validating ? schema.parse(data, params) : (data as Output));
  declared.parseAsync = async (data, params) => (validating ? schema.parseAsync(data, params) : (data as Output));
  const standard = schema["~standard"];
  declared["~standard"] = { ...standard, validate: (value) => (validating ? standard.validate(value) : { value: value as Output }) };
  responseSchemas.add(declared);
  return declared;
}
