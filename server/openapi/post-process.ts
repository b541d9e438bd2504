import type { OpenAPIObject } from "trpc-to-openapi";
import { codeToStatus, errorCodes, type ErrorCode } from "../errors";
import { kindRules, type Credential, type OperationKind } from "../trpc/operation-kinds";

/**
 * Pure post-processing of trpc-to-openapi's output. The generator only knows procedures and zod
 * schemas; the REST transport (server/http/rest-handler.ts) adds the envelope, headers and status
 * codes that clients actually see, so the document is corrected here to match it.
 *
 * Every function takes values and returns new ones; nothing mutates its input.
 */

type Components = NonNullable<OpenAPIObject["components"]>;
type PathItem = NonNullable<OpenAPIObject["paths"]>[string];
export type Operation = NonNullable<PathItem["get"]>;
type Reference = { $ref: string };
type ResponseOrRef = NonNullable<Components["responses"]>[string];
type ParameterOrRef = NonNullable<Components["parameters"]>[string];
type HeaderOrRef = NonNullable<Components["headers"]>[string];
type SchemaOrRef = NonNullable<Components["schemas"]>[string];
type Response = Exclude<ResponseOrRef, Reference>;
type Header = Exclude<HeaderOrRef, Reference>;
type Parameter = Exclude<ParameterOrRef, Reference>;
type Tag = NonNullable<OpenAPIObject["tags"]>[number];

export const httpMethods = ["get", "put", "post", "delete", "patch"] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** What the router's meta says about one operation (the document alone cannot tell). */
export type OperationFacts = {
  method: HttpMethod;
  /** Normalised the way trpc-to-openapi keys `paths`. */
  path: string;
  /** The operation's kind, from its procedure's meta: its credential, Idempotency-Key and If-Match rules. */
  kind: OperationKind;
  successStatus: number;
  errorStatuses: readonly number[];
};

/** Statuses the transport can answer on any operation, whatever the procedure declares. */
export const ALWAYS_POSSIBLE_ERROR_STATUSES = [400, 429, 500, 503] as const;

const ERROR_ENVELOPE_REF = "#/components/schemas/ErrorEnvelope";
const errorResponseKey = (status: number): string => `Error${status}`;
const headerRef = (key: string): Reference => ({ $ref: `#/components/headers/${key}` });
const IF_NONE_MATCH_REF: Reference = { $ref: "#/components/parameters/IfNoneMatch" };

const isReference = (value: unknown): value is Reference =>
  typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";

export function normalizePath(path: string): string {
  return `/${path.replace(/^\/|\/$/g, "")}`;
}

// ---------------------------------------------------------------------------------------------
// Errors

/** What each code means to a client; typed by ErrorCode so a new code cannot go undocumented. */
const errorCatalog: Record<ErrorCode, { meaning: string; sampleMessage: string }> = {
  VALIDATION_ERROR: {
    meaning: "the path, query, headers or body are invalid; `details.fields` lists each problem",
    sampleMessage: "The request is not valid",
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    meaning: "the write was sent without an `Idempotency-Key` header",
    sampleMessage: "This operation needs an Idempotency-Key header",
  },
  UNAUTHORIZED: {
    meaning:
      "the credential (`X-Cart-Token`, `X-Receipt-Token` or customer JWT) is missing or invalid, or the customer session ended (signed out, expired); on sign-in and phone verification, the one-time code is wrong, expired, used or replaced",
    sampleMessage: "Send the cart's X-Cart-Token (or a customer bearer token)",
  },
  FORBIDDEN: {
    meaning: "the credential is valid but does not own this resource",
    sampleMessage: "This cart token belongs to a different cart",
  },
  NOT_FOUND: { meaning: "the resource does not exist or is hidden from this caller", sampleMessage: "Cart was not found" },
  RATE_LIMITED: {
    meaning: "too many requests from this client address, or too many one-time codes or wrong codes for one e-mail address or phone number; wait `Retry-After` seconds",
    sampleMessage: "Too many requests from this address; retry after the reset time",
  },
  CART_CONFLICT: {
    meaning: "`If-Match` is stale: reload the cart and retry with its current ETag",
    sampleMessage: "The cart changed since you read it; reload it and retry",
  },
  REQUOTE_REQUIRED: {
    meaning: "the cart's price quote is no longer valid and must be refreshed before this step",
    sampleMessage: "The quote has expired; re-read the cart before continuing",
  },
  RESOURCE_CONFLICT: {
    meaning: "the request conflicts with the current state of the resource",
    sampleMessage: "The resource is in a state that does not allow this request",
  },
  CART_IMMUTABLE: {
    meaning: "the cart is locked, completed or expired and can no longer be changed",
    sampleMessage: "The cart is EXPIRED and can no longer be changed",
  },
  IDEMPOTENCY_KEY_REUSED: {
    meaning: "this `Idempotency-Key` was already used for a different request",
    sampleMessage: "This Idempotency-Key was already used for a different request",
  },
  IDEMPOTENCY_IN_PROGRESS: {
    meaning: "a request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds",
    sampleMessage: "A request with this Idempotency-Key is still being processed; retry shortly",
  },
  PRECONDITION_REQUIRED: {
    meaning: "a cart change was sent without `If-Match`",
    sampleMessage: 'Cart changes need If-Match with the current cart ETag, e.g. "cart-3"',
  },
  DEPENDENCY_UNAVAILABLE: {
    meaning: "a required dependency (database, rate limiter, payment processor) is temporarily unavailable; retry after `Retry-After` seconds",
    sampleMessage: "The database is temporarily unavailable; retry shortly",
  },
  INTERNAL_ERROR: {
    meaning: "an unexpected error; quote the `requestId` when reporting it",
    sampleMessage: "An unexpected error occurred. Quote the request id when reporting it.",
  },
  METHOD_NOT_ALLOWED: {
    meaning: "the path exists but not with this method; `Allow` lists the methods it answers",
    sampleMessage: "PUT is not allowed here; this path answers GET, HEAD, OPTIONS",
  },
  REQUEST_HEADERS_TOO_LARGE: {
    meaning: "the request's headers are larger than the server accepts (16 KiB in all); answered by `npm start` before any operation is chosen",
    sampleMessage: "The request headers are too large",
  },
};

const statusTitles: Record<number, string> = {
  400: "Bad Request: the request is invalid",
  401: "Unauthorized: authentication or capability required, or the credential is invalid",
  403: "Forbidden: the principal does not own the resource",
  404: "Not Found: the resource is missing or hidden",
  405: "Method Not Allowed: the path does not answer this method",
  431: "Request Header Fields Too Large",
  409: "Conflict: an idempotency key or the resource revision conflicts",
  428: "Precondition Required: a current `If-Match` revision is required",
  429: "Too Many Requests: rate limited",
  500: "Internal Server Error: unexpected error",
  503: "Service Unavailable: a required dependency is temporarily unavailable",
};

/** Codes per HTTP status, in the order of `errorCodes`, straight from the one code-to-status table. */
export function errorCodesByStatus(table: Record<ErrorCode, number> = codeToStatus): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) {
    const status = table[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

export const errorEnvelopeSchema: SchemaOrRef = {
  type: "object",
  description:
    "The one error body of the service. It is closed: no other properties appear. `requestId` equals the X-Request-Id response header.",
  properties: {
    code: {
      type: "string",
      description: `Machine-readable error code. Known codes: ${errorCodes.join(", ")}. Other non-empty strings may occur: handle an unknown code by its HTTP status.`,
    },
    message: { type: "string", minLength: 1, description: "Human-readable explanation. Show or log it; do not parse it." },
    requestId: { type: "string", minLength: 8, description: "Opaque id of this request, the same as the X-Request-Id header." },
    details: {
      type: "object",
      additionalProperties: true,
      description: "Optional structured detail, e.g. `fields` (a list of `{path, message}`) on VALIDATION_ERROR, or `limit` and `resetAt` on RATE_LIMITED.",
    },
  },
  required: ["code", "message", "requestId"],
  additionalProperties: false,
};

const SAMPLE_REQUEST_ID = "req_Zk3q9vR1mWc7TnB2xYpL4d0s";

function statusNotes(status: number): string[] {
  if (status === 409) return ["`Retry-After` is sent with IDEMPOTENCY_IN_PROGRESS."];
  if (status === 429 || status === 503) return ["`Retry-After` says how many seconds to wait."];
  return [];
}

export function errorResponse(status: number, codesByStatus: Map<number, ErrorCode[]>): Response {
  const codes = codesByStatus.get(status) ?? [];
  const title = statusTitles[status] ?? `HTTP ${status}`;
  const lines = [
    `${title}.`,
    ...(codes.length > 0 ? ["", "Codes at this status:", ...codes.map((code) => `- \`${code}\`: ${errorCatalog[code].meaning}.`)] : []),
    ...statusNotes(status).flatMap((note) => ["", note]),
  ];
  const headers: Record<string, HeaderOrRef> = {
    "X-Request-Id": headerRef("RequestId"),
    "X-RateLimit-Limit": headerRef("RateLimitLimit"),
    "X-RateLimit-Remaining": headerRef("RateLimitRemaining"),
    "X-RateLimit-Reset": headerRef("RateLimitReset"),
    "Cache-Control": headerRef("ErrorCacheControl"),
    ...(status === 409 || status === 429 || status === 503 ? { "Retry-After": headerRef("ErrorRetryAfter") } : {}),
  };
  return {
    description: lines.join("\n"),
    headers,
    content: {
      "application/json": {
        schema: { $ref: ERROR_ENVELOPE_REF },
        ...(codes.length > 0
          ? {
              examples: Object.fromEntries(
                codes.map((code) => [
                  code,
                  { summary: code, value: { code, message: errorCatalog[code].sampleMessage, requestId: SAMPLE_REQUEST_ID } },
                ]),
              ),
            }
          : {}),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Headers the transport sets itself, shared by every operation. */
export const transportHeaders: Record<string, Header> = {
  RequestId: {
    description: "Opaque id of this request, on every response (errors carry it as `requestId` too). Quote it when reporting a problem.",
    required: true,
    schema: { type: "string", minLength: 8 },
  },
  RateLimitLimit: {
    description: "Requests allowed per window for this client address (200 per 10 minutes). Omitted when the rate limiter could not answer.",
    schema: { type: "integer", minimum: 1 },
  },
  RateLimitRemaining: {
    description: "Requests left in the current window. Omitted when the rate limiter could not answer.",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitReset: {
    description: "When the current window resets, as a Unix timestamp in epoch seconds. Omitted when the rate limiter could not answer.",
    schema: { type: "integer", minimum: 0 },
  },
  ErrorRetryAfter: {
    description: "Seconds to wait before retrying. Sent on 429, on 503 and on 409 IDEMPOTENCY_IN_PROGRESS.",
    schema: { type: "integer", minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      "`true` when this response replays the stored result of an earlier request with the same Idempotency-Key (same status, body and headers); absent on the first execution.",
    schema: { type: "string", enum: ["true"] },
  },
  ContentETag: {
    description: "Strong validator of this representation. Send it in If-None-Match to get 304 Not Modified while it is unchanged.",
    required: true,
    schema: { type: "string" },
  },
  PublicCacheControl: {
    description:
      "Shared caches may store the response briefly: `public, max-age=30, stale-while-revalidate=60`. The service itself answers repeated anonymous reads from memory for a few seconds (at most that max-age); a request with `Cache-Control: no-cache` is answered fresh.",
    required: true,
    schema: { type: "string" },
  },
  ErrorCacheControl: {
    description: "Errors are never cached: `no-store`.",
    required: true,
    schema: { type: "string" },
  },
};

export const ifNoneMatchParameter: ParameterOrRef = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "ETag(s) from an earlier response. When one matches the current representation, the answer is 304 Not Modified with no body.",
  schema: { type: "string" },
};

/**
 * zod-openapi copies a header's description into its schema as well; renderers then show it twice
 * (or, once the outer one is rewritten, two different texts). The outer description is the one
 * OpenAPI defines for parameters and headers, so the inner copy goes.
 */
function withoutSchemaDescription<T extends Parameter | Header>(value: T): T {
  if (!value.schema || isReference(value.schema) || value.schema.description === undefined) return value;
  const { description: _inner, ...schema } = value.schema;
  return { ...value, schema };
}

/** Component key for a header a procedure declares, e.g. `Cache-Control` -> `CacheControl`. */
function declaredHeaderKey(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, "");
}

/**
 * Hoists the response headers procedures declare (inline in the generator's output) into
 * `components.headers`, one component per distinct header object, never under a `reserved` key.
 * Returns the components and, per operation and header name, the component key to reference.
 */
export function collectDeclaredHeaders(
  operations: readonly { id: string; operation: Operation }[],
  reserved: ReadonlySet<string> = new Set(Object.keys(transportHeaders)),
): {
  components: Record<string, Header>;
  keyFor: (operationId: string, headerName: string) => string | undefined;
} {
  const components: Record<string, Header> = {};
  const keys = new Map<string, string>();
  for (const { id, operation } of operations) {
    const success = successResponseOf(operation);
    for (const [name, header] of Object.entries(success?.headers ?? {})) {
      if (isReference(header)) continue;
      const hoisted = withoutSchemaDescription(header);
      const serialized = JSON.stringify(hoisted);
      const base = declaredHeaderKey(name);
      let key = base;
      const taken = (candidate: string) =>
        reserved.has(candidate) || (components[candidate] !== undefined && JSON.stringify(components[candidate]) !== serialized);
      for (let n = 2; taken(key); n++) key = `${base}${n}`;
      components[key] = hoisted;
      keys.set(`${id}\u0000${name}`, key);
    }
  }
  return { components, keyFor: (operationId, headerName) => keys.get(`${operationId}\u0000${headerName}`) };
}

// ---------------------------------------------------------------------------------------------
// Operations

function responsesOf(operation: Operation): Record<string, ResponseOrRef> {
  // openapi3-ts types a status entry as `any`; the return type pins it to what the generator writes.
  return operation.responses ?? {};
}

/** The generator always documents success as 200. */
function successResponseOf(operation: Operation): Response | undefined {
  const success = responsesOf(operation)["200"];
  return success === undefined || isReference(success) ? undefined : success;
}

function headerParameterNames(operation: Operation): Set<string> {
  return new Set(
    (operation.parameters ?? []).filter((parameter) => !isReference(parameter) && parameter.in === "header").map((parameter) => (parameter as { name: string }).name.toLowerCase()),
  );
}

/** The credential headers, what each carries, and the security scheme that documents it. */
const credentialHeaders: Record<string, { name: string; carries: string; scheme: string }> = {
  "x-cart-token": { name: "X-Cart-Token", carries: "Cart capability: the `cartAccessToken` returned by the ordering session.", scheme: "cartToken" },
  "x-receipt-token": {
    name: "X-Receipt-Token",
    carries: "Receipt capability: the `receiptToken` of the completed order result.",
    scheme: "receiptToken",
  },
  authorization: { name: "Authorization", carries: "`Bearer <customer JWT>`, the merchant-bound session from customer sign-in.", scheme: "customerJwt" },
};

/** The credential headers each kind of credential accepts (lower-cased), any one of which suffices. */
const credentialHeadersByCredential: Record<Credential, string[]> = {
  none: [],
  cart: ["x-cart-token", "authorization"],
  receipt: ["x-receipt-token", "authorization"],
  customer: ["authorization"],
};

const credentialHeadersOf = (facts: OperationFacts): string[] => credentialHeadersByCredential[kindRules[facts.kind].credential];

/** Each credential header alone is optional; the operation needs one of those it accepts. */
function credentialDescription(header: string, accepted: readonly string[]): string {
  const others = accepted.filter((name) => name !== header).map((name) => `\`${credentialHeaders[name]?.name ?? name}\``);
  const carries = credentialHeaders[header]?.carries ?? "";
  return others.length === 0 ? `${carries} Required.` : `${carries} Send this or ${others.join(" or ")}; one of them is required.`;
}

/**
 * Fallback descriptions for parameter names the routers share, used only when the zod schema
 * carries no description of its own (the schema's `.meta({ description })` always wins).
 */
const parameterDescriptions: Record<string, string> = {
  locationId: "Location identifier (1-128 URL-safe characters).",
  locationSlugOrId: "Location identifier or its slug (1-128 URL-safe characters).",
  cartId: "Cart identifier (`cart.id`).",
  itemId: "Cart line identifier (`items[].id`).",
  productId: "Product identifier.",
  categoryId: "Only products of this category.",
  orderDate: "Local date at the location, YYYY-MM-DD. Defaults to today.",
  orderTime: "Local time at the location, HH:MM (24-hour).",
  date: "Local date at the location, YYYY-MM-DD. Defaults to today.",
  limit: "Maximum number of items to return.",
  cursor: "The `nextCursor` of the previous page; omit for the first page.",
  receiptId: "Receipt identifier: the `receiptId` of the completed order result.",
};

/** Gives every parameter a description and the credential headers their either-or meaning. */
export function documentParameters(operation: Operation, facts: OperationFacts): ParameterOrRef[] {
  const credentials = credentialHeadersOf(facts);
  const parameters = (operation.parameters ?? []).map((parameter): ParameterOrRef => {
    if (isReference(parameter)) return parameter;
    const lower = parameter.name.toLowerCase();
    if (parameter.in === "header" && credentials.includes(lower)) {
      const required = credentials.length === 1 && parameter.required === true;
      return withoutSchemaDescription({ ...parameter, required, description: credentialDescription(lower, credentials) });
    }
    const schemaDescription = parameter.schema && !isReference(parameter.schema) ? parameter.schema.description : undefined;
    const description = parameter.description ?? schemaDescription ?? parameterDescriptions[parameter.name];
    return description === undefined ? parameter : withoutSchemaDescription({ ...parameter, description });
  });
  const needsIfNoneMatch = facts.method === "get" && !headerParameterNames(operation).has("if-none-match");
  return needsIfNoneMatch ? [...parameters, IF_NONE_MATCH_REF] : parameters;
}

/** Declared error statuses plus the ones the transport can answer anywhere. */
export function errorStatusesOf(facts: OperationFacts): number[] {
  return [...new Set([...facts.errorStatuses, ...ALWAYS_POSSIBLE_ERROR_STATUSES])].sort((a, b) => a - b);
}

/**
 * The success response under its real status, every response header the transport sets, for
 * GETs the 304 the transport answers when If-None-Match matches, and references to the shared
 * error responses (the envelope and the codes per status do not depend on the operation).
 */
export function documentResponses(
  operation: Operation,
  facts: OperationFacts,
  declaredKey: (headerName: string) => string | undefined,
): Record<string, ResponseOrRef> {
  const success = successResponseOf(operation);
  if (!success) throw new Error(`${facts.method.toUpperCase()} ${facts.path}: the generator wrote no 200 response`);

  const declared: Record<string, HeaderOrRef> = {};
  for (const name of Object.keys(success.headers ?? {})) {
    const key = declaredKey(name);
    if (key !== undefined) declared[name] = headerRef(key);
  }
  const declaredLower = new Set(Object.keys(declared).map((name) => name.toLowerCase()));
  // GETs without their own validator get the transport's body hash and public caching.
  const validators: Record<string, HeaderOrRef> =
    facts.method === "get"
      ? {
          ...(declaredLower.has("etag") ? {} : { ETag: headerRef("ContentETag") }),
          ...(declaredLower.has("cache-control") ? {} : { "Cache-Control": headerRef("PublicCacheControl") }),
        }
      : {};
  const transport: Record<string, HeaderOrRef> = {
    "X-Request-Id": headerRef("RequestId"),
    "X-RateLimit-Limit": headerRef("RateLimitLimit"),
    "X-RateLimit-Remaining": headerRef("RateLimitRemaining"),
    "X-RateLimit-Reset": headerRef("RateLimitReset"),
  };
  const successHeaders = {
    ...declared,
    ...validators,
    ...transport,
    ...(kindRules[facts.kind].idempotencyKey ? { "Idempotent-Replayed": headerRef("IdempotentReplayed") } : {}),
  };

  const successDescription =
    facts.successStatus === 201 ? "Created." : success.description === "Successful response" ? "OK." : success.description;
  const notModified: Record<string, Response> =
    facts.method === "get"
      ? {
          "304": {
            description: "Not Modified: If-None-Match matched the current ETag. No body; the cached representation is still current.",
            headers: { ...declared, ...validators, ...transport },
          },
        }
      : {};

  const statuses = errorStatusesOf(facts);
  return {
    [String(facts.successStatus)]: { ...success, description: successDescription, headers: successHeaders },
    ...notModified,
    ...Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/${errorResponseKey(status)}` }])),
  };
}

/** Prose rules appended to the operation's own description, derived from what it requires. */
export function operationRules(facts: OperationFacts): string[] {
  const rules: string[] = [];
  const kind = kindRules[facts.kind];
  const credentials = credentialHeadersOf(facts).map((name) => `\`${credentialHeaders[name]?.name ?? name}\``);
  if (credentials.length > 0) {
    rules.push(`**Credential:** ${credentials.join(" or ")}, in the header, never in the query string.`);
  }
  if (kind.idempotencyKey) {
    rules.push(
      "**Idempotent:** send a unique `Idempotency-Key`. Retrying the identical request with the same key replays the stored response with `Idempotent-Replayed: true`; the same key on a different request is 409 IDEMPOTENCY_KEY_REUSED.",
    );
  }
  if (kind.ifMatch) {
    rules.push(
      "**Optimistic concurrency:** send the cart's current ETag in `If-Match`. Missing: 428 PRECONDITION_REQUIRED. Stale: 409 CART_CONFLICT (reload the cart, then retry). The response carries the new ETag.",
    );
  }
  if (facts.method === "get") {
    rules.push("**Conditional:** send the ETag of an earlier response in `If-None-Match` to get 304 Not Modified while it is unchanged.");
  }
  if (facts.successStatus !== 200) rules.push(`**Success status:** ${facts.successStatus}.`);
  return rules;
}

/**
 * Alternatives (any one suffices) for the credential headers the operation accepts; every scheme
 * when a protected operation declares none.
 */
export function operationSecurity(facts: OperationFacts, securitySchemeNames: readonly string[]): Record<string, string[]>[] {
  // An empty list says "no credential" explicitly; omitting it would read as "unspecified".
  if (kindRules[facts.kind].credential === "none") return [];
  const schemes = credentialHeadersOf(facts)
    .map((name) => credentialHeaders[name]?.scheme)
    .filter((scheme): scheme is string => scheme !== undefined && securitySchemeNames.includes(scheme));
  return (schemes.length > 0 ? schemes : securitySchemeNames).map((name) => ({ [name]: [] }));
}

export function documentOperation(
  operation: Operation,
  facts: OperationFacts,
  context: { securitySchemeNames: readonly string[]; declaredKey: (headerName: string) => string | undefined },
): Operation {
  const description = [operation.description, ...operationRules(facts)].filter((part) => part !== undefined && part !== "").join("\n\n");
  return {
    ...operation,
    description,
    security: operationSecurity(facts, context.securitySchemeNames),
    parameters: documentParameters(operation, facts),
    responses: documentResponses(operation, facts, context.declaredKey),
  };
}

/**
 * A write whose input is all in the path still has a body in the document, `{}`, so that generated
 * clients (openapi-typescript) type it as an empty object rather than `undefined`; the service
 * refuses any member (and, on DELETE, anything but no body or `{}`).
 */
const emptyRequestBody = {
  required: false,
  description: "Empty: send `{}` (or no body). Any member, or a body that is not a JSON object, is refused with 400 VALIDATION_ERROR.",
  content: { "application/json": { schema: { type: "object", properties: {}, additionalProperties: false } } },
};

// ---------------------------------------------------------------------------------------------
// Document

const tagDescriptions: Record<string, string> = {
  Catalog: "Anonymous, cacheable reads of published locations, menus, products, order times and gratuity policy.",
  "Ordering sessions": "Start ordering: creates a guest cart and returns its capability token (once).",
  Carts: "Read and change a priced cart. Every change is idempotent (Idempotency-Key) and optimistic (If-Match with the cart's ETag).",
  Discounts: "Apply or remove a cart's discount code; the same rules as every other cart change.",
  Checkout: "Payment session, payment, order result polling and rating of a cart.",
  Receipts: "Receipts, readable with a customer JWT or an X-Receipt-Token receipt capability.",
  "Customer authentication": "Merchant-bound customer sign-in by one-time code.",
  Customer: "The signed-in customer's profile, orders, addresses, saved payments, loyalty ledger and phone verification.",
};

export function documentTags(operations: readonly Operation[]): Tag[] {
  const names = [...new Set(operations.flatMap((operation) => operation.tags ?? []))];
  return names.map((name) => ({ name, description: tagDescriptions[name] ?? `Operations on ${name.toLowerCase()}.` }));
}

export const apiDescription = [
  "Ordering API for restaurant storefronts: anonymous catalog reads, guest carts with automatic pricing, checkout and customer sign-in. Catalog and cart operations are scoped to a location (`{locationId}`).",
  "**Credentials.** Cart operations take the cart capability in `X-Cart-Token` (returned once by the ordering session) or a merchant-bound customer JWT in `Authorization: Bearer <token>`; either one is enough. Credentials are accepted only in headers: a request with a credential-like query parameter (`token`, `access_token`, `cartToken`, ...) is rejected with 400.",
  "**Idempotency.** Every write takes an `Idempotency-Key` (16-128 of `A-Z a-z 0-9 . _ : -`), scoped to the caller (its credential, or its address when anonymous) and reserved for retries of the one request it was first sent with. Retrying the identical request with the same key replays the stored response with `Idempotent-Replayed: true`; the same key with a different request, another operation included, is 409 IDEMPOTENCY_KEY_REUSED; while the first request is still running, 409 IDEMPOTENCY_IN_PROGRESS with `Retry-After`. An anonymous caller is known only by its address, which clients behind one NAT share: a replay to an anonymous caller never carries a credential (the ordering session's `cartAccessToken`).",
  "**ETags and If-Match.** A cart's revision is its ETag (`\"cart-<revision>\"`). Cart changes need it in `If-Match`: missing is 428 PRECONDITION_REQUIRED, stale is 409 CART_CONFLICT (reload the cart, then retry). Each success returns the new ETag. The idempotency key is checked first, so retrying a change that already succeeded replays it instead of conflicting.",
  "**Caching.** GET responses carry an ETag; send it back in `If-None-Match` to get 304 Not Modified. Catalog reads are publicly cacheable for a short time (the service itself serves repeated anonymous reads from memory for a few seconds; send `Cache-Control: no-cache` for a fresh read); carts are `private, no-store`.",
  "**Rate limit.** 200 requests per 10 minutes per client IP address, as a sliding window (a burst at the end of one window still counts at the start of the next). Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix epoch seconds), omitted when the limiter could not answer. Over the limit: 429 RATE_LIMITED with `Retry-After`.",
  "**Errors.** Every error is the closed envelope `{code, message, requestId, details?}` (schema ErrorEnvelope). Every response carries `X-Request-Id`, equal to the envelope's `requestId`. Unknown codes may appear: handle them by HTTP status.",
  "**Paths and methods.** Paths match exactly (case included) after percent-decoding each segment, so `harbor%2Dkitchen` is `harbor-kitchen`; a path parameter that decodes to anything but 1-128 of `A-Z a-z 0-9 . _ : ~ -` is 400 naming the parameter, and a malformed escape (`%ff`) is 400. The bare prefix, a trailing slash or an empty segment is 404 NOT_FOUND (there are no redirects). A path that exists with other methods answers 405 METHOD_NOT_ALLOWED with `Allow`. `HEAD` answers every GET operation as GET would, without a body. A write whose input is all in its path takes `{}` or no body; on DELETE anything else is 400. Bodies are UTF-8 JSON (`Content-Type: application/json`, no other charset), at most 64 KiB and 32 levels deep. Headers larger than 16 KiB in all are 431 REQUEST_HEADERS_TOO_LARGE (from `npm start`; a platform in front may answer first).",
  "**Browsers.** Cross-origin calls are allowed only from the service's allowlist of exact origins.",
].join("\n\n");

/** Drops shared responses, headers and parameters no operation references (they would only confuse readers). */
export function pruneUnusedComponents(components: Components, paths: NonNullable<OpenAPIObject["paths"]>): Components {
  const keep = <T>(section: "responses" | "headers" | "parameters", entries: Record<string, T> | undefined, referrers: string) =>
    Object.fromEntries(Object.entries(entries ?? {}).filter(([key]) => referrers.includes(`"#/components/${section}/${key}"`)));
  const { responses, headers, parameters, ...rest } = components;
  const inPaths = JSON.stringify(paths);
  const keptResponses = keep("responses", responses, inPaths);
  // Shared error responses reference headers too.
  const keptHeaders = keep("headers", headers, inPaths + JSON.stringify(keptResponses));
  const keptParameters = keep("parameters", parameters, inPaths);
  const nonEmpty = <T>(name: string, entries: Record<string, T>) => (Object.keys(entries).length > 0 ? { [name]: entries } : {});
  return { ...rest, ...nonEmpty("responses", keptResponses), ...nonEmpty("headers", keptHeaders), ...nonEmpty("parameters", keptParameters) };
}

export function postProcessDocument(raw: OpenAPIObject, facts: readonly OperationFacts[]): OpenAPIObject {
  const factsByKey = new Map(facts.map((fact) => [`${fact.method} ${fact.path}`, fact]));
  const rawPaths = raw.paths ?? {};
  const operations = Object.entries(rawPaths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ id: `${method} ${path}`, method, path, operation }] : [];
    }),
  );
  const declared = collectDeclaredHeaders(operations);
  const securitySchemeNames = Object.keys(raw.components?.securitySchemes ?? {});

  const paths: NonNullable<OpenAPIObject["paths"]> = {};
  for (const { id, method, path, operation } of operations) {
    const fact = factsByKey.get(id);
    if (!fact) throw new Error(`${method.toUpperCase()} ${path}: no procedure meta found for this operation`);
    const documented = documentOperation(operation, fact, {
      securitySchemeNames,
      declaredKey: (headerName) => declared.keyFor(id, headerName),
    });
    const withBody = method === "get" || documented.requestBody !== undefined ? documented : { ...documented, requestBody: emptyRequestBody };
    paths[path] = { ...(paths[path] ?? rawPaths[path]), [method]: withBody };
  }

  const codesByStatus = errorCodesByStatus();
  const errorStatuses = [...new Set(facts.flatMap(errorStatusesOf))].sort((a, b) => a - b);
  const rawSchemas = raw.components?.schemas ?? {};
  // The generator's `error.*` schemas describe tRPC's error shape, which the REST route never sends.
  const schemas = Object.fromEntries(Object.entries(rawSchemas).filter(([name]) => !name.startsWith("error.")));
  const components = pruneUnusedComponents(
    {
      ...raw.components,
      schemas: { ...schemas, ErrorEnvelope: errorEnvelopeSchema },
      responses: Object.fromEntries(errorStatuses.map((status) => [errorResponseKey(status), errorResponse(status, codesByStatus)])),
      headers: { ...transportHeaders, ...declared.components },
      parameters: { IfNoneMatch: ifNoneMatchParameter },
    },
    paths,
  );

  return {
    openapi: raw.openapi,
    info: {
      title: raw.info.title,
      version: raw.info.version,
      description: apiDescription,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: (raw.servers ?? []).map((server) => ({ ...server, description: server.description ?? "This deployment (paths are relative to it)." })),
    tags: documentTags(operations.map(({ operation }) => operation)),
    paths,
    components,
  };
}
