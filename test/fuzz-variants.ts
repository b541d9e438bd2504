import fc from "fast-check";
import type { DocumentedOperation, OpenApiResponseValidator } from "./openapi-validator";

/**
 * Hostile variants of one valid request, derived from the operation's OpenAPI description: every
 * body field (wrong types, boundaries, huge, unicode, injection), missing required fields, extra
 * and prototype-polluting keys, path and query parameters, credential and precondition headers,
 * content types and methods. Each variant changes one thing, so a failure names its cause.
 */

type Json = Record<string, unknown>;

/** The valid request the variants start from, split so each part can be changed on its own. */
export type BaseRequest = {
  method: string;
  segments: string[];
  query: [string, string][];
  headers: Record<string, string>;
  body: Json | undefined;
};

export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: unknown; rawBody?: string };

export type Variant = { label: string; build: (base: BaseRequest) => FuzzRequest };

const KB100 = "x".repeat(100 * 1024);
/** Large but under the 64 KiB body limit, so field validation (not the body limit) must refuse it. */
const KB40 = "y".repeat(40 * 1024);

export const injectionStrings = [
  "' OR '1'='1",
  "1; DROP TABLE carts;--",
  "\"; DELETE FROM idempotency_records; --",
  "prd_hk_smash_burger' --",
  '{"$ne":null}',
  '{"$gt":""}',
  "$where: function() { return true }",
  "../../../../etc/passwd",
  "..%2f..%2f..%2fetc%2fpasswd",
  "..\\..\\windows\\win.ini",
  "%00",
  "%2e%2e%2f",
  "<script>alert(1)</script>",
  "${7*7}{{7*7}}",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "9007199254740993",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "",
  " ",
];

export const unicodeStrings = [
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "\uDBFF\uDBFF",
  "😀",
  "👩‍👩‍👧‍👦".repeat(50),
  "\u202Eevil\u202C",
  "عربي עברית",
  "\uFEFF\u200B\u200D",
  "e\u0301\u0301\u0301\u0301",
  "𝕳𝖊𝖑𝖑𝖔",
  "\u{10FFFF}",
  "\u001F\u007F\u0085",
];

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** Pagination cursors this API never issues: the right outline with values the database refuses, and the wrong outline. */
export const hostileCursors: [string, string][] = [
  ["sort order past int4", b64([2 ** 31, "prd_x"])],
  ["sort order 1e10", b64([1e10, "prd_x"])],
  ["sort order 2^53+2", b64([2 ** 53 + 2, "prd_x"])],
  ["sort order 1.5", b64([1.5, "prd_x"])],
  ["NUL in the id", b64([1, "a\u0000b"])],
  ["NUL in the id of a time cursor", b64(["2020-01-01T00:00:00.000Z", "a\u0000b"])],
  ["lone surrogate in the id", b64(["2020-01-01T00:00:00.000Z", "a\uD800b"])],
  ["id of 129 characters", b64(["2020-01-01T00:00:00.000Z", "x".repeat(129)])],
  ["year +275760", b64(["+275760-09-13T00:00:00.000Z", "ord_x"])],
  ["year -271821", b64(["-271821-04-20T00:00:00.000Z", "ord_x"])],
  ["year 0", b64(["0000-01-01T00:00:00.000Z", "ord_x"])],
  ["February 30th", b64(["2021-02-30T00:00:00.000Z", "ord_x"])],
  ["a date without time", b64(["2020-01-01", "ord_x"])],
  ["an object", b64({ at: "2020-01-01T00:00:00.000Z", id: "x" })],
  ["three elements", b64([1, "x", 2])],
  ["null", b64("null")],
  ["not JSON", b64("[1,")],
  ["not base64url", "!!!"],
  ["empty id", b64([1, ""])],
];

/** Header values must be ByteStrings without control characters, or `Headers` itself refuses them. */
const headerSafe = (value: string) => /^[\x20-\x7e\x80-\xff]*$/.test(value);

const wrongTypeValues: unknown[] = [0, -1, 1.5, true, false, null, [], {}, "1", "", [1, 2], { $ne: null }, { $gt: "" }, ["a"]];

/** Bare JSON number tokens (and a few non-JSON ones) that JSON.stringify cannot produce. */
const rawNumberTokens = ["NaN", "Infinity", "-Infinity", "1e309", "-1e309", "1e-400", "-0", "0.0000000001", "9007199254740993", "123456789012345678901234567890", "01", "0x1F", "+1", ".5", "undefined"];

export const pollutingKeys = ["__proto__", "constructor", "prototype", "__defineGetter__", "hasOwnProperty", "toString", "$where", ""];

type Point = { path: (string | number)[]; schema: Json; required: boolean };

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setIn(body: Json, path: (string | number)[], value: unknown): Json {
  const copy = clone(body);
  let target: unknown = copy;
  for (const key of path.slice(0, -1)) target = (target as Record<string | number, unknown>)[key];
  (target as Record<string | number, unknown>)[path[path.length - 1] ?? ""] = value;
  return copy;
}

function deleteIn(body: Json, path: (string | number)[]): Json {
  const copy = clone(body);
  let target: unknown = copy;
  for (const key of path.slice(0, -1)) target = (target as Record<string | number, unknown>)[key];
  delete (target as Record<string | number, unknown>)[path[path.length - 1] ?? ""];
  return copy;
}

const RAW_PLACEHOLDER = "__FUZZ_RAW_VALUE__";
const KEY_PLACEHOLDER = "__FUZZ_KEY__";

/** Every property the body schema describes, nested into objects and the first array element the valid body has. */
export function bodyPoints(validator: OpenApiResponseValidator, schemaOrRef: unknown, sample: unknown, prefix: (string | number)[] = []): Point[] {
  const schema = validator.resolve(schemaOrRef);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const points: Point[] = [];
  for (const [name, propertyOrRef] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    const property = validator.resolve(propertyOrRef);
    const path = [...prefix, name];
    points.push({ path, schema: property, required: required.includes(name) });
    const value = isObject(sample) ? sample[name] : undefined;
    if (property.type === "array" && Array.isArray(value) && value.length > 0) {
      points.push(...bodyPoints(validator, property.items, value[0], [...path, 0]));
    } else if (property.type === "object" && isObject(value)) {
      points.push(...bodyPoints(validator, property, value, path));
    }
  }
  return points;
}

/** Values just outside (and on) the schema's limits, plus the classic numeric extremes. */
function boundaryValues(schema: Json): unknown[] {
  const values: unknown[] = [];
  if (typeof schema.minLength === "number" && schema.minLength > 0) values.push("x".repeat(schema.minLength - 1));
  if (typeof schema.maxLength === "number") values.push("x".repeat(schema.maxLength + 1), "x".repeat(schema.maxLength));
  if (typeof schema.maxItems === "number") values.push(Array.from({ length: schema.maxItems + 1 }, () => ({})));
  if (typeof schema.minimum === "number") values.push(schema.minimum - 1, schema.minimum - 0.5);
  if (typeof schema.maximum === "number") values.push(schema.maximum + 1, schema.maximum + 0.5);
  if (schema.type === "integer" || schema.type === "number") values.push(0, -1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324);
  if (Array.isArray(schema.enum)) values.push(...(schema.enum as unknown[]).map((value) => (typeof value === "string" ? `${value.toUpperCase()} ` : value)));
  if (typeof schema.const === "string") values.push(schema.const.toUpperCase(), `${schema.const}\u0000`);
  return values;
}

function hostileValue(schema: Json): fc.Arbitrary<unknown> {
  const typeMismatch = wrongTypeValues.filter((value) => {
    if (schema.type === "string") return typeof value !== "string";
    if (schema.type === "integer" || schema.type === "number") return typeof value !== "number";
    if (schema.type === "boolean") return typeof value !== "boolean";
    if (schema.type === "array") return !Array.isArray(value);
    return true;
  });
  const arbitraries: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(...typeMismatch),
    fc.constantFrom(...injectionStrings, ...unicodeStrings, KB100, KB40),
    fc.string({ unit: "binary", maxLength: 40 }),
  ];
  const boundaries = boundaryValues(schema);
  if (boundaries.length > 0) arbitraries.push(fc.constantFrom(...boundaries));
  return fc.oneof(...arbitraries);
}

function shortLabel(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 40)}... (${text.length} chars)` : text;
}

function requestOf(base: BaseRequest, changes: Partial<FuzzRequest> & { segments?: string[]; query?: [string, string][] }): FuzzRequest {
  const segments = changes.segments ?? base.segments;
  const query = changes.query ?? base.query;
  const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
  const method = changes.method ?? base.method;
  const request: FuzzRequest = { method, path: changes.path ?? `/${segments.join("/")}${search}`, headers: changes.headers ?? base.headers };
  if (changes.rawBody !== undefined) request.rawBody = changes.rawBody;
  else if ("body" in changes) request.body = changes.body;
  else if (base.body !== undefined && method !== "GET" && method !== "DELETE") request.body = base.body;
  return request;
}

const variant = (label: string, build: (base: BaseRequest) => FuzzRequest): Variant => ({ label, build });

/** Values with a custom fast-check rendering, so a counterexample prints its label, not a 100 KB string. */
function labelled(arbitrary: fc.Arbitrary<Variant>): fc.Arbitrary<Variant> {
  return arbitrary.map((value) => Object.assign(value, { [fc.toStringMethod]: () => value.label }));
}

function pathSegment(value: string, encode: boolean): string {
  if (!encode) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate cannot be percent-encoded; send it raw and let the URL parser replace it.
    return value;
  }
}

export type OperationShape = {
  operation: DocumentedOperation;
  /** Path parameter name -> index into the concrete segments. */
  pathParams: Map<string, number>;
  queryParams: { name: string; schema: Json }[];
  headerParams: string[];
  bodySchema: Json | undefined;
};

export function operationShape(validator: OpenApiResponseValidator, operation: DocumentedOperation): OperationShape {
  const templateSegments = operation.template.split("/").slice(1);
  const pathParams = new Map<string, number>();
  templateSegments.forEach((segment, index) => {
    const match = /^\{(.+)\}$/.exec(segment);
    if (match?.[1]) pathParams.set(match[1], index);
  });
  const parameters = (Array.isArray(operation.operation.parameters) ? operation.operation.parameters : []).map((parameter) => validator.resolve(parameter));
  const requestBody = isObject(operation.operation.requestBody) ? validator.resolve(operation.operation.requestBody) : undefined;
  const content = isObject(requestBody?.content) ? requestBody.content : {};
  const media = content["application/json"];
  return {
    operation,
    pathParams,
    queryParams: parameters.filter((parameter) => parameter.in === "query").map((parameter) => ({ name: String(parameter.name), schema: validator.resolve(parameter.schema) })),
    headerParams: parameters.filter((parameter) => parameter.in === "header").map((parameter) => String(parameter.name)),
    bodySchema: isObject(media) ? validator.resolve(media.schema) : undefined,
  };
}

/** Stands for the request's own valid value of the header (sent twice, or changed in case). */
const SAME = "<valid value>";

const headerValues: string[] = [
  ...injectionStrings,
  KB100,
  "\u00ff\u00fe\u00e9",
  SAME,
  '"cart-9007199254740993"',
  '"cart-99999999999999999999999"',
  '"cart-1.5"',
  '"cart-0x1"',
  'W/"cart-0", "cart-1"',
  "*",
  "Bearer ' OR 1=1 --",
  // An unsigned ("alg": "none") token claiming a customer and a merchant.
  "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJjdXNfMSIsIm1pZCI6Im1lcl8xIn0.",
  `Bearer ${"a".repeat(8192)}`,
  "Basic YWRtaW46YWRtaW4=",
  "..:..--..__..::..--",
  "ct_' OR '1'='1",
  "null",
].filter(headerSafe);

/** Paths (into the valid body) of every JSON object in it, the root included. */
function objectPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPaths(item, [...prefix, index]));
  if (!isObject(value)) return [];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => objectPaths(child, [...prefix, key]))];
}

/** Every kind of hostile variant that applies to this operation. */
export function variantArbitrary(validator: OpenApiResponseValidator, shape: OperationShape, validBody: Json | undefined): fc.Arbitrary<Variant> {
  const kinds: fc.Arbitrary<Variant>[] = [];

  if (shape.bodySchema && validBody) {
    const body = validBody;
    const points = bodyPoints(validator, shape.bodySchema, body);
    if (points.length > 0) {
      const point = fc.constantFrom(...points);
      kinds.push(
        point.chain((at) =>
          hostileValue(at.schema).map((value) => variant(`body ${at.path.join(".")} = ${shortLabel(value)}`, (base) => requestOf(base, { body: setIn(base.body ?? body, at.path, value) }))),
        ),
        fc.tuple(point, fc.constantFrom(...rawNumberTokens)).map(([at, token]) =>
          variant(`body ${at.path.join(".")} = raw ${token}`, (base) =>
            requestOf(base, { rawBody: JSON.stringify(setIn(base.body ?? body, at.path, RAW_PLACEHOLDER)).replace(`"${RAW_PLACEHOLDER}"`, token) }),
          ),
        ),
      );
      const required = points.filter((candidate) => candidate.required);
      if (required.length > 0) {
        kinds.push(fc.constantFrom(...required).map((at) => variant(`body without required ${at.path.join(".")}`, (base) => requestOf(base, { body: deleteIn(base.body ?? body, at.path) }))));
      }
      // Extra keys at the top level and inside every nested object, written into the JSON text so
      // `__proto__` arrives as an own property exactly as a hostile client would send it.
      const objectContainers = objectPaths(body);
      kinds.push(
        fc
          .tuple(fc.constantFrom(...objectContainers), fc.constantFrom(...pollutingKeys, "extra", "isAdmin"), fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, true, "x", null))
          .map(([container, key, value]) =>
            variant(`body ${[...container, key].join(".") || "(root)"} extra key ${JSON.stringify(key)} = ${shortLabel(value)}`, (base) =>
              requestOf(base, { rawBody: JSON.stringify(setIn(base.body ?? body, [...container, KEY_PLACEHOLDER], value)).replace(`"${KEY_PLACEHOLDER}"`, JSON.stringify(key)) }),
            ),
          ),
      );
    }
    kinds.push(
      fc
        .constantFrom<[string, string]>(
          ["null", "null"],
          ["array", "[]"],
          ["string", '"body"'],
          ["number", "1"],
          ["empty object", "{}"],
          ["deep nesting", `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`],
          ["duplicate keys", JSON.stringify(body).replace(/^\{/, `{"${Object.keys(body)[0] ?? "x"}":"duplicate",`)],
          ["100 KB body", JSON.stringify({ ...body, padding: KB100 })],
          ["truncated", JSON.stringify(body).slice(0, -1)],
          ["BOM prefix", `\uFEFF${JSON.stringify(body)}`],
        )
        .map(([label, rawBody]) => variant(`whole body: ${label}`, (base) => requestOf(base, { rawBody }))),
      fc
        .constantFrom("text/plain", "application/json; charset=utf-16", "application/jsonp", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json, text/plain", "APPLICATION/JSON")
        .map((contentType) =>
          variant(`content-type ${contentType}`, (base) => requestOf(base, { headers: { ...base.headers, "content-type": contentType }, rawBody: JSON.stringify(base.body ?? body) })),
        ),
    );
  }

  if (shape.pathParams.size > 0) {
    kinds.push(
      fc
        .tuple(fc.constantFrom(...shape.pathParams.keys()), fc.oneof(fc.constantFrom(...injectionStrings, ...unicodeStrings, KB100, "x".repeat(129)), fc.string({ unit: "binary", maxLength: 20 })), fc.boolean())
        .map(([name, value, encode]) =>
          variant(`path ${name} = ${shortLabel(value)}${encode ? " (encoded)" : " (raw)"}`, (base) => {
            const segments = [...base.segments];
            segments[shape.pathParams.get(name) ?? 0] = pathSegment(value, encode);
            return requestOf(base, { segments });
          }),
        ),
    );
  }

  if (shape.queryParams.length > 0) {
    kinds.push(
      fc
        .tuple(fc.constantFrom(...shape.queryParams), fc.oneof(fc.constantFrom(...injectionStrings, ...unicodeStrings, KB100, "0", "-1", "1e308", "2.5", "9007199254740993"), fc.string({ unit: "binary", maxLength: 20 })), fc.boolean())
        .map(([parameter, value, repeat]) =>
          variant(`query ${parameter.name} = ${shortLabel(value)}${repeat ? " (repeated)" : ""}`, (base) => {
            const query = base.query.filter(([name]) => name !== parameter.name);
            const original = base.query.find(([name]) => name === parameter.name);
            return requestOf(base, { query: [...query, ...(repeat && original ? [original] : []), [parameter.name, value]] });
          }),
        ),
    );
  }

  // The headers the operation reads; an operation that reads none still gets credential-like ones it must ignore.
  const headers = shape.headerParams.length > 0 ? shape.headerParams : ["X-Cart-Token", "Idempotency-Key", "If-Match", "Authorization"];
  kinds.push(
    fc
      .constantFrom(...headers)
      .chain((name) => fc.tuple(fc.constant(name), fc.constantFrom(...headerValues), fc.boolean()))
      .map(([name, value, duplicate]) =>
        variant(`header ${name} = ${shortLabel(value)}${duplicate ? " (appended to the valid one)" : ""}`, (base) => {
          const valid = Object.entries(base.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
          const replacement = value === SAME ? (duplicate ? (valid ?? "") : (valid ?? "").toUpperCase()) : value;
          // Two header lines of one name reach the server joined by ", ", as fetch joins them.
          const sent = duplicate && valid !== undefined ? `${valid}, ${replacement}` : replacement;
          const others = Object.fromEntries(Object.entries(base.headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
          return requestOf(base, { headers: headerSafe(sent) ? { ...others, [name]: sent } : others });
        }),
      ),
    fc
      .constantFrom("GET", "POST", "PUT", "PATCH", "DELETE")
      .filter((method) => method !== shape.operation.method.toUpperCase())
      .map((method) => variant(`method ${method}`, (base) => requestOf(base, { method, body: method === "GET" || method === "DELETE" ? undefined : (base.body ?? {}) }))),
  );

  return labelled(fc.oneof(...kinds));
}

const DEEP_3000 = `${"[".repeat(3000)}${"]".repeat(3000)}`;

/** Amounts past every policy and past 2^53 - 1 minor units, for fields that hold amounts or counts. */
function hugeAmounts(schema: Json): unknown[] {
  if (schema.type === "integer" || schema.type === "number") return [2 ** 53 - 1, 2 ** 53 + 2, 1e21];
  const decimal = typeof schema.pattern === "string" && schema.pattern.includes("\\d");
  return decimal ? ["9999999999999.00", "90071992547409.91", "99999999", "1".repeat(400)] : [];
}

/** Fixed variants every operation gets before the random ones: the inputs most likely to reach storage. */
export function targetedVariants(validator: OpenApiResponseValidator, shape: OperationShape, validBody: Json | undefined): Variant[] {
  const variants: Variant[] = [];
  if (shape.bodySchema && validBody) {
    const body = validBody;
    for (const at of bodyPoints(validator, shape.bodySchema, body).filter((point) => point.schema.type === "string")) {
      for (const value of ["a\u0000b", "x\uD800y", "😀\u202E"]) {
        variants.push(variant(`body ${at.path.join(".")} = ${shortLabel(value)}`, (base) => requestOf(base, { body: setIn(base.body ?? body, at.path, value) })));
      }
    }
    for (const at of bodyPoints(validator, shape.bodySchema, body)) {
      variants.push(variant(`body ${at.path.join(".")} = nested 3,000 deep`, (base) => requestOf(base, { rawBody: JSON.stringify(setIn(base.body ?? body, at.path, RAW_PLACEHOLDER)).replace(`"${RAW_PLACEHOLDER}"`, DEEP_3000) })));
      for (const value of hugeAmounts(at.schema)) variants.push(variant(`body ${at.path.join(".")} = ${shortLabel(value)}`, (base) => requestOf(base, { body: setIn(base.body ?? body, at.path, value) })));
    }
    variants.push(
      variant("body extra key __proto__", (base) =>
        requestOf(base, { rawBody: JSON.stringify(setIn(base.body ?? body, [KEY_PLACEHOLDER], { polluted: true })).replace(`"${KEY_PLACEHOLDER}"`, '"__proto__"') }),
      ),
    );
  }
  if (shape.queryParams.some((parameter) => parameter.name === "cursor")) {
    for (const [label, cursor] of hostileCursors) variants.push(variant(`query cursor: ${label}`, (base) => requestOf(base, { query: [...base.query.filter(([name]) => name !== "cursor"), ["cursor", cursor]] })));
  }
  for (const parameter of shape.queryParams) {
    variants.push(variant(`query ${parameter.name} = "a\\u0000b"`, (base) => requestOf(base, { query: [...base.query.filter(([name]) => name !== parameter.name), [parameter.name, "a\u0000b"]] })));
  }
  return variants.map((value) => Object.assign(value, { [fc.toStringMethod]: () => value.label }));
}
