import type { OpenAPIObject } from "trpc-to-openapi";
import type { ErrorCode } from "../errors";
import { operationTags } from "../routers/meta";
import { transportResponseHeaders } from "../schemas/common";
import { credentials, kindRules, type OperationKind } from "../trpc/operation-kinds";
import { SAMPLE_REQUEST_ID, errorCatalog, errorCodesByStatus, errorHeaders, errorStatuses } from "./error-catalog";

/**
 * What trpc-to-openapi cannot express, added to its output. Everything else is declared where it
 * belongs: the generator's options (server/openapi/document.ts), each operation's meta
 * (server/routers/meta.ts) and the zod schemas' metadata (server/schemas/common.ts). What is left:
 *
 * - the success status when it is not 200, and for reads the 304 the transport answers;
 * - the error responses: the REST transport (server/http) answers every error with the service's
 *   envelope, not tRPC's shape, so each becomes a reference to one shared response per status;
 * - the security requirement of the operation's kind (the generator gives every protected
 *   operation every scheme);
 * - a `{}` body for writes whose input is all in the path (the generator drops their body);
 * - the descriptions of optional query parameters, which the generator re-wraps without their meta;
 * - the descriptions of the tags and the server.
 *
 * Every function takes values and returns new ones; nothing mutates its input.
 */

type Components = NonNullable<OpenAPIObject["components"]>;
type PathItem = NonNullable<OpenAPIObject["paths"]>[string];
export type Operation = NonNullable<PathItem["get"]>;
type Reference = { $ref: string };
type ResponseOrRef = NonNullable<Components["responses"]>[string];
type Response = Exclude<ResponseOrRef, Reference>;
type ParameterOrRef = NonNullable<Components["parameters"]>[string];
type RequestBody = Exclude<NonNullable<Operation["requestBody"]>, Reference>;

export const httpMethods = ["get", "put", "post", "delete", "patch"] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** What the router's meta says about one operation (the document alone cannot tell). */
export type OperationFacts = {
  method: HttpMethod;
  /** Normalised the way trpc-to-openapi keys `paths`. */
  path: string;
  /** The operation's kind, from its procedure's meta: the credential it takes. */
  kind: OperationKind;
  successStatus: number;
  /** A GET that answers If-None-Match with 304 (StorefrontMeta.revisionTagged: not the cart read). */
  conditional: boolean;
  /** The codes it can answer (StorefrontMeta.errorCodes), each at its status. */
  errorCodes: readonly ErrorCode[];
};

export function normalizePath(path: string): string {
  return `/${path.replace(/^\/|\/$/g, "")}`;
}

const isReference = (value: unknown): value is Reference =>
  typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";

const errorResponseKey = (status: number): string => `Error${status}`;
const headerRef = (key: string): Reference => ({ $ref: `#/components/headers/${key}` });

/** The transport's headers, referenced by the component id their zod schema declares. */
const transportHeaderRefs: Record<string, Reference> = Object.fromEntries(
  Object.entries(transportResponseHeaders.shape).map(([name, schema]) => [name, headerRef(schema.meta()?.header?.id ?? name)]),
);

/**
 * An error response: the envelope, the codes it can carry (in the text, as examples, and as the
 * list `x-error-codes`, which the test harness holds every answer to) and a sample of each.
 */
export function errorResponse(status: number, codes: readonly ErrorCode[]): Response {
  const { title, note, retryAfter } = errorStatuses[status] ?? { title: `HTTP ${status}` };
  const lines = [
    `${title}.`,
    ...(codes.length > 0 ? ["", "Codes at this status:", ...codes.map((code) => `- \`${code}\`: ${errorCatalog[code].meaning}.`)] : []),
    ...(note ? ["", note] : []),
  ];
  const examples = Object.fromEntries(
    codes.map((code) => [code, { summary: code, value: { code, message: errorCatalog[code].sampleMessage, requestId: SAMPLE_REQUEST_ID } }]),
  );
  return {
    description: lines.join("\n"),
    headers: {
      ...transportHeaderRefs,
      "Cache-Control": headerRef("ErrorCacheControl" satisfies keyof typeof errorHeaders),
      ...(retryAfter ? { "Retry-After": headerRef("ErrorRetryAfter" satisfies keyof typeof errorHeaders) } : {}),
    },
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" }, ...(codes.length > 0 ? { examples } : {}) } },
    "x-error-codes": [...codes],
  };
}

/**
 * An operation's error response at one status: the shared one when the operation can answer every
 * code of that status, else its own, listing only its codes (a login cannot answer CART_CONFLICT).
 */
function operationErrorResponse(status: number, facts: OperationFacts): ResponseOrRef {
  const all = errorCodesByStatus().get(status) ?? [];
  const own = facts.errorCodes.filter((code) => all.includes(code));
  if (own.length === 0) throw new Error(`${facts.method.toUpperCase()} ${facts.path}: documents ${status} but declares none of its codes`);
  return own.length === all.length ? { $ref: `#/components/responses/${errorResponseKey(status)}` } : errorResponse(status, own);
}

/** trpc-to-openapi re-wraps an optional query parameter, dropping its `param` meta: its description is its schema's. */
function withOwnDescription(parameter: ParameterOrRef): ParameterOrRef {
  if (isReference(parameter) || !parameter.schema || isReference(parameter.schema) || parameter.schema.description === undefined) return parameter;
  const { description, ...schema } = parameter.schema;
  return { ...parameter, description: parameter.description ?? description, schema };
}

/** Refuses any member; on DELETE anything but no body or `{}`. Typed `{}` so generated clients (openapi-typescript) expect an object. */
const emptyRequestBody: RequestBody = {
  required: false,
  description: "Empty: send `{}` (or no body). Any member, or a body that is not a JSON object, is refused with 400 VALIDATION_ERROR.",
  content: { "application/json": { schema: { type: "object", properties: {}, additionalProperties: false } } },
};

export function documentOperation(operation: Operation, facts: OperationFacts): Operation {
  // openapi3-ts types a status entry as `any`; the generator always writes success as 200.
  const { "200": success, ...others } = (operation.responses ?? {}) as Record<string, ResponseOrRef>;
  if (success === undefined || isReference(success)) throw new Error(`${facts.method.toUpperCase()} ${facts.path}: the generator wrote no 200 response`);
  const notModified: Response = {
    description: "Not Modified: If-None-Match matched the current ETag. No body; the cached representation is still current.",
    ...(success.headers ? { headers: success.headers } : {}),
  };
  const errors = Object.keys(others).filter((status) => Number(status) >= 400);
  const { requestBody, ...rest } = operation;
  return {
    ...rest,
    security: credentials[kindRules[facts.kind].credential].schemes.map((scheme) => ({ [scheme]: [] })),
    parameters: (operation.parameters ?? []).map(withOwnDescription),
    ...(requestBody !== undefined ? { requestBody } : facts.method === "get" ? {} : { requestBody: emptyRequestBody }),
    responses: {
      [String(facts.successStatus)]: success,
      ...(facts.conditional ? { "304": notModified } : {}),
      ...Object.fromEntries(errors.map((status) => [status, operationErrorResponse(Number(status), facts)])),
    },
  };
}

export function postProcessDocument(raw: OpenAPIObject, facts: readonly OperationFacts[]): OpenAPIObject {
  const factsByKey = new Map(facts.map((fact) => [`${fact.method} ${fact.path}`, fact]));
  const paths: NonNullable<OpenAPIObject["paths"]> = {};
  const statuses = new Set<number>();
  for (const [path, item] of Object.entries(raw.paths ?? {})) {
    paths[path] = { ...item };
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const fact = factsByKey.get(`${method} ${path}`);
      if (!fact) throw new Error(`${method.toUpperCase()} ${path}: no procedure meta found for this operation`);
      const documented = documentOperation(operation, fact);
      for (const status of Object.keys(documented.responses ?? {})) if (Number(status) >= 400) statuses.add(Number(status));
      paths[path][method] = documented;
    }
  }

  const codesByStatus = errorCodesByStatus();
  const sorted = [...statuses].sort((a, b) => a - b);
  // The generator's `error.*` schemas describe tRPC's error shape, which the REST route never sends.
  const schemas = Object.fromEntries(Object.entries(raw.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  return {
    ...raw,
    servers: (raw.servers ?? []).map((server) => ({ ...server, description: server.description ?? "This deployment (paths are relative to it)." })),
    tags: (raw.tags ?? []).map((tag) => ({ ...tag, description: operationTags[tag.name as keyof typeof operationTags] })),
    paths,
    components: {
      ...raw.components,
      schemas,
      responses: Object.fromEntries(sorted.map((status) => [errorResponseKey(status), errorResponse(status, codesByStatus.get(status) ?? [])])),
      headers: { ...raw.components?.headers, ...errorHeaders },
    },
  };
}
