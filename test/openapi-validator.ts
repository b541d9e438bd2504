import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { OpenAPIObject } from "trpc-to-openapi";
import { buildOpenApiDocument } from "../server/openapi/document";


/**
 * Checks real responses against the OpenAPI document the service publishes, so the document
 * cannot drift from what clients see: the status must be one the operation documents, the body
 * must match that status's schema and the documented headers must be present and well-formed.
 * Used by the test harness on every call; one instance per test worker.
 */

export const documentMethods = ["get", "put", "post", "delete", "patch"] as const;
export type DocumentMethod = (typeof documentMethods)[number];

type Json = Record<string, unknown>;
type SchemaObject = Json;

export type DocumentedOperation = {
  method: DocumentMethod;
  /** The path template as the document keys it, e.g. `/locations/{locationId}/menus`. */
  template: string;
  operationId: string;
  operation: Json;
  /** Literal segments; null for a parameter. */
  segments: (string | null)[];
};

export type ObservedResponse = {
  method: string;
  /** The path below the REST prefix, query string included. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
};

const DOCUMENT_ID = "https://storefront.invalid/openapi.json";

/** What a request no operation takes is answered with (server/http/rest-routes.ts), by status. */
const unroutedCodes: Record<number, string[]> = { 400: ["VALIDATION_ERROR"], 404: ["NOT_FOUND"], 405: ["METHOD_NOT_ALLOWED"] };

/** A path segment percent-decoded, or as it is when its escapes are malformed (the service answers 400 then). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** `#/components/schemas/X` becomes a reference into the one schema resource registered with Ajv. */
function rewriteSchemaRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteSchemaRefs);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === "$ref" && typeof child === "string" ? child.replace(/^#\/components\/schemas\//, `${DOCUMENT_ID}#/$defs/`) : rewriteSchemaRefs(child),
    ]),
  );
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || "(root)"} ${error.message ?? error.keyword}${error.keyword === "additionalProperties" ? ` (${String(error.params.additionalProperty)})` : ""}`)
    .join("; ");
}

export class OpenApiResponseValidator {
  readonly document: OpenAPIObject;
  readonly operations: DocumentedOperation[];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenAPIObject = buildOpenApiDocument()) {
    this.document = document;
    // Strict, so a keyword or format Ajv does not understand fails loudly instead of validating nothing.
    this.ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOCUMENT_ID, $defs: rewriteSchemaRefs(document.components?.schemas ?? {}) as Json });
    this.operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      documentMethods.flatMap((method) => {
        const operation = (item as Json)[method];
        if (!isObject(operation)) return [];
        const segments = template
          .split("/")
          .slice(1)
          .map((segment) => (/^\{[^}]+\}$/.test(segment) ? null : segment));
        return [{ method, template, operationId: typeof operation.operationId === "string" ? operation.operationId : `${method} ${template}`, operation, segments }];
      }),
    );
  }

  /** Follows `$ref`s inside the document (responses, headers, parameters, schemas). */
  resolve<T = Json>(value: unknown): T {
    let current = value;
    for (let depth = 0; isObject(current) && typeof current.$ref === "string"; depth += 1) {
      if (depth > 16) throw new Error(`reference cycle at ${current.$ref}`);
      const pointer = current.$ref.replace(/^#\//, "").split("/").map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
      let target: unknown = this.document;
      for (const part of pointer) target = isObject(target) ? target[part] : undefined;
      if (target === undefined) throw new Error(`unresolved reference ${current.$ref}`);
      current = target;
    }
    return current as T;
  }

  /**
   * The operation the service routes this request to (server/http/rest-routes.ts): literal segments
   * match exactly after percent-decoding, a literal beats a parameter (`/products/popular` before
   * `/products/{productId}`), and a trailing slash or empty segment matches nothing.
   */
  findOperation(method: string, path: string): DocumentedOperation | undefined {
    const pathname = path.split("?")[0] ?? "";
    const segments = pathname.split("/").slice(1).map(safeDecode);
    const lowerMethod = method.toLowerCase();
    const candidates = this.operations.filter(
      (operation) =>
        operation.method === lowerMethod &&
        operation.segments.length === segments.length &&
        operation.segments.every((literal, index) => (literal === null ? (segments[index] ?? "") !== "" : literal === segments[index])),
    );
    const literalCount = (operation: DocumentedOperation) => operation.segments.filter((segment) => segment !== null).length;
    return candidates.sort((a, b) => literalCount(b) - literalCount(a))[0];
  }

  /** Statuses the operation documents, as numbers. */
  documentedStatuses(operation: DocumentedOperation): number[] {
    return Object.keys(this.responsesOf(operation)).map(Number);
  }

  /** Problems with this response; empty when it is exactly what the document promises. */
  problems(observed: ObservedResponse): string[] {
    const method = observed.method.toUpperCase();
    if (method === "OPTIONS") return this.preflightProblems(observed);
    // HEAD is GET without a body (RFC 9110): the same status and headers, checked against GET's document.
    if (method === "HEAD") {
      const problems = this.problems({ ...observed, method: "GET", text: "" });
      return observed.text === "" ? problems.filter((problem) => !problem.startsWith("the body is not JSON")) : [...problems, "a HEAD answer has a body"];
    }
    const operation = this.findOperation(method, observed.path);
    if (!operation) return this.unroutedProblems(observed);
    const responses = this.responsesOf(operation);
    const documented = responses[String(observed.status)];
    if (documented === undefined) return [`status ${observed.status} is not documented (documented: ${Object.keys(responses).join(", ")})`];
    return this.responseProblems(operation, observed, documented);
  }

  /**
   * A request no operation takes (apiDescription says what each answer means): 405 with `Allow`
   * where the path answers other methods, 400 for a malformed escape, else 404; always the envelope.
   */
  private unroutedProblems(observed: ObservedResponse): string[] {
    const otherMethods = documentMethods.filter((candidate) => this.findOperation(candidate, observed.path) !== undefined);
    const expected = otherMethods.length > 0 ? [405] : [404, 400];
    if (!expected.includes(observed.status)) return [`no documented operation matches this method and path, so the answer must be ${expected.join(" or ")}, got ${observed.status}`];
    const problems = this.responseProblems(undefined, observed, {
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
      "x-error-codes": unroutedCodes[observed.status] ?? [],
    });
    if (observed.status === 405) {
      const allow = (observed.headers.get("allow") ?? "").split(",").map((name) => name.trim().toLowerCase());
      for (const candidate of otherMethods) if (!allow.includes(candidate)) problems.push(`Allow "${observed.headers.get("allow") ?? ""}" does not list ${candidate.toUpperCase()}`);
    }
    return problems;
  }

  /** Throws an error naming the operation, the status and every problem, for the test that made the call. */
  assertDocumented(observed: ObservedResponse): void {
    const problems = this.problems(observed);
    if (problems.length === 0) return;
    const operation = this.findOperation(observed.method, observed.path);
    const name = operation ? `${operation.operationId} (${operation.method.toUpperCase()} ${operation.template})` : "no operation";
    throw new Error(
      [
        `Response does not match the OpenAPI document: ${observed.method.toUpperCase()} ${observed.path.slice(0, 200)} -> ${observed.status}, ${name}`,
        ...problems.map((problem) => `  - ${problem}`),
        `  body: ${observed.text.slice(0, 500)}`,
      ].join("\n"),
    );
  }

  private responsesOf(operation: DocumentedOperation): Json {
    return isObject(operation.operation.responses) ? operation.operation.responses : {};
  }

  /** CORS preflight is transport, not an operation: 204 without a body, or an error in the envelope. */
  private preflightProblems(observed: ObservedResponse): string[] {
    if (observed.status === 204) return observed.text === "" ? [] : ["a preflight 204 has a body"];
    const key = `Error${observed.status}`;
    if (!isObject(this.document.components?.responses?.[key])) return [`preflight status ${observed.status} is neither 204 nor a documented error status`];
    return this.envelopeProblems(observed, `#/components/responses/${key}`);
  }

  private envelopeProblems(observed: ObservedResponse, responseRef: string): string[] {
    return this.responseProblems(undefined, observed, { $ref: responseRef });
  }

  private responseProblems(operation: DocumentedOperation | undefined, observed: ObservedResponse, documentedOrRef: unknown): string[] {
    const response = this.resolve(documentedOrRef);
    const problems: string[] = [];
    problems.push(...this.headerProblems(response, observed.headers));

    const content = isObject(response.content) ? response.content : undefined;
    const media = content?.["application/json"];
    if (!isObject(media)) {
      if (observed.text !== "") problems.push(`status ${observed.status} documents no body but one was sent`);
      return problems;
    }
    const contentType = observed.headers.get("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(contentType)) problems.push(`content-type is "${contentType}", documented application/json`);
    let body: unknown;
    try {
      body = JSON.parse(observed.text);
    } catch {
      return [...problems, "the body is not JSON"];
    }
    const validate = this.schemaValidator(media.schema, `${operation?.operationId ?? "unrouted"} ${observed.status}`);
    if (!validate(body)) problems.push(`body does not match the schema: ${describeErrors(validate.errors)}`);
    // The envelope's requestId is documented as equal to the header, and its code as one of the response's `x-error-codes`.
    if (isObject(media.schema) && media.schema.$ref === "#/components/schemas/ErrorEnvelope" && isObject(body)) {
      const header = observed.headers.get("x-request-id");
      if (body.requestId !== header) problems.push(`envelope requestId ${String(body.requestId)} differs from X-Request-Id ${String(header)}`);
      const codes = response["x-error-codes"];
      if (!Array.isArray(codes)) problems.push(`the documented ${observed.status} response lists no x-error-codes`);
      else if (!codes.includes(body.code)) problems.push(`code ${String(body.code)} is not one this operation documents at ${observed.status} (${codes.join(", ")})`);
    }
    return problems;
  }

  private headerProblems(response: Json, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, headerOrRef] of Object.entries(isObject(response.headers) ? response.headers : {})) {
      const header = this.resolve(headerOrRef);
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true) problems.push(`required header ${name} is missing`);
        continue;
      }
      const schema = this.resolve<SchemaObject>(header.schema ?? {});
      // Header values are text: an integer header must be the decimal digits of an integer.
      const typed = schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
      const validate = this.schemaValidator(schema, `header ${name}`);
      if (!validate(typed)) problems.push(`header ${name}: "${value.slice(0, 80)}" ${describeErrors(validate.errors)}`);
    }
    return problems;
  }

  private schemaValidator(schema: unknown, label: string): ValidateFunction {
    const rewritten = rewriteSchemaRefs(schema ?? {});
    const key = JSON.stringify(rewritten);
    let validate = this.compiled.get(key);
    if (!validate) {
      try {
        validate = this.ajv.compile(rewritten as SchemaObject);
      } catch (error) {
        throw new Error(`cannot compile the documented schema of ${label}: ${String(error)}`);
      }
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

let shared: OpenApiResponseValidator | undefined;

/** One validator per worker process: the document and the compiled schemas are reused by every call. */
export function openApiValidator(): OpenApiResponseValidator {
  shared ??= new OpenApiResponseValidator();
  return shared;
}
