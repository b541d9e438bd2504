import { generateOpenApiDocument, type GenerateOpenApiDocumentOptions, type OpenAPIObject } from "trpc-to-openapi";
import { parseEnv } from "../env";
import { appRouter } from "../routers";
import { operationTags } from "../routers/meta";
import type { StorefrontMeta } from "../trpc/init";
import { errorEnvelopeSchema } from "./error-catalog";
import { httpMethods, normalizePath, postProcessDocument, type HttpMethod, type OperationFacts } from "./post-process";

export const OPENAPI_BASE_URL = "/api/v1/storefront";

type ProcedureLike = { _def: { meta?: unknown } };

/** tRPC v11 procedures are functions carrying `_def`. */
function isProcedureLike(value: unknown): value is ProcedureLike {
  return (typeof value === "function" || (typeof value === "object" && value !== null)) && typeof (value as { _def?: unknown })._def === "object";
}

/**
 * Reads each REST-exposed procedure's meta. tRPC types `_def.procedures` as the nested router
 * record, but at run time it is the flat map of dotted paths to procedures (trpc-to-openapi walks
 * it the same way), hence the guard instead of the declared type.
 */
export function collectOperationFacts(procedures: Record<string, unknown>): OperationFacts[] {
  const facts: OperationFacts[] = [];
  for (const procedure of Object.values(procedures)) {
    if (!isProcedureLike(procedure)) continue;
    // The router is built with `.meta<StorefrontMeta>()`, so every meta has this shape.
    const meta = procedure._def.meta as StorefrontMeta | undefined;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    const method = openapi.method.toLowerCase() as HttpMethod;
    if (!httpMethods.includes(method)) continue;
    if (!meta.kind) throw new Error(`${openapi.method} ${openapi.path}: the procedure's meta declares no kind (server/routers/meta.ts)`);
    if (!meta.errorCodes) throw new Error(`${openapi.method} ${openapi.path}: the procedure's meta lists no error codes (server/routers/meta.ts)`);
    facts.push({
      method,
      path: normalizePath(openapi.path),
      kind: meta.kind,
      successStatus: meta.successStatus ?? 200,
      conditional: method === "get" && meta.revisionTagged !== true,
      errorCodes: meta.errorCodes,
    });
  }
  return facts;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The lifetimes and limits the document states: server/env.ts's defaults (a deployment may set others). */
const defaults = parseEnv({});
const hours = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} hours` : `${minutes} minutes`);

/** The rules every operation follows; each operation's description adds the ones its kind imposes (server/routers/meta.ts). */
const apiDescription = [
  "Ordering API for restaurant storefronts: anonymous catalog reads, guest carts with automatic pricing, checkout and customer sign-in. Catalog and cart operations are scoped to a location (`{locationId}`).",
  "**Credentials.** Cart operations take the cart capability in `X-Cart-Token` (returned once by the ordering session) or a merchant-bound customer JWT in `Authorization: Bearer <token>`; either one is enough. Send one: when both come, the `X-Cart-Token` is the credential and the bearer beside it is not consulted, so a stale or wrong cart token is refused (401, or 403 for another cart's) even beside a valid bearer. A signed-out customer token is refused with 401, also on a retry of a write it made before signing out (only the logout's own retry replays). Credentials are accepted only in headers: a request with a credential-like query parameter (`token`, `access_token`, `cartToken`, ...) is rejected with 400.",
  "**Idempotency.** Every write takes an `Idempotency-Key` (16-128 of `A-Z a-z 0-9 . _ : -`), scoped to the caller (its credential, or its address when anonymous) and reserved for retries of the one request it was first sent with. Retrying the identical request with the same key replays the stored response with `Idempotent-Replayed: true`; the same key with a different request, another operation included, is 409 IDEMPOTENCY_KEY_REUSED; while the first request is still running, 409 IDEMPOTENCY_IN_PROGRESS with `Retry-After`. An anonymous caller is known only by its address, which clients behind one NAT share: a replay to an anonymous caller never carries the ordering session's `cartAccessToken`. Sign-in's verify-otp replays its session token: its request carries the proof that earned it (the challenge's `methodId` and its one-time code).",
  "**ETags and If-Match.** A cart's revision is its ETag (`\"cart-<revision>\"`). Cart changes need it in `If-Match`: missing is 428 PRECONDITION_REQUIRED, stale is 409 CART_CONFLICT (reload the cart, then retry). Each success returns the new ETag. The idempotency key is checked first, so retrying a change that already succeeded replays it instead of conflicting.",
  "**Caching.** GET responses carry an ETag; send it back in `If-None-Match` to get 304 Not Modified. Not a cart's: its ETag is the revision for `If-Match`, and a cart read always answers 200 with the current cart. Catalog reads are publicly cacheable for a short time (the service itself serves repeated anonymous reads from memory for a few seconds; send `Cache-Control: no-cache` for a fresh read); carts are `private, no-store`.",
  "**Rate limit.** 200 requests per 10 minutes per client IP address, as a sliding window (a burst at the end of one window still counts at the start of the next). Responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix epoch seconds), omitted when the limiter could not answer. Over the limit: 429 RATE_LIMITED with `Retry-After`: a request sent that many seconds later is let through (if you sent none in between). With one instance's own limiter that is the first such moment; with a limiter shared by instances (Redis, Upstash) it is the end of the current window, which can be later than needed.",
  "**Errors.** Every error is the closed envelope `{code, message, requestId, details?}` (schema ErrorEnvelope). Every response carries `X-Request-Id`, equal to the envelope's `requestId`. Each operation lists, at each error status, the codes it can answer there (in the text, as examples and as `x-error-codes`): a sign-in never answers CART_CONFLICT. Unknown codes may appear: handle them by HTTP status.",
  "**Paths and methods.** Paths match exactly (case included) after percent-decoding each segment, so `harbor%2Dkitchen` is `harbor-kitchen`; a path parameter that decodes to anything but 1-128 of `A-Z a-z 0-9 . _ : ~ -` is 400 naming the parameter, and a malformed escape (`%ff`) is 400. The bare prefix, a trailing slash or an empty segment is 404 NOT_FOUND (there are no redirects). A path that exists with other methods answers 405 METHOD_NOT_ALLOWED with `Allow`. `HEAD` answers every GET operation as GET would, without a body. A write whose input is all in its path takes `{}` or no body; on DELETE anything else is 400. A body member named like one of the path's parameters (`cartId`, `locationId`, ...) is 400: the path gives them. Bodies are UTF-8 JSON (`Content-Type: application/json`, no other charset, no `Content-Encoding`), at most 64 KiB and 32 levels deep. Headers larger than 16 KiB in all are 431 REQUEST_HEADERS_TOO_LARGE (from `npm start`; a platform in front may answer first). Where the service runs behind Next's own routing (Vercel, or `REST_MOUNT=next`), Next answers a few requests before the service does, outside these rules: `//` or `\\` in a path (308 to the path with single slashes), an absolute-form request target (`GET http://host/...`, 308), methods it does not know (400 or 500), a malformed escape (500), Next's internal request headers (`RSC: 1` is a 307; `x-middleware-prefetch` is a 200 `{}` with nothing done). Clients send none of those. Next also sends every answer chunked, so there a HEAD carries no `Content-Length`.",
  "**Order time.** A new cart is ASAP. A closed location takes no ASAP order: payment-session and payments answer 409 REQUOTE_REQUIRED with reason SCHEDULE_CLOSED while an ASAP cart's location is closed (or closes before an order placed now would be ready), a LATER time is no longer bookable (past, inside the lead time, outside the hours, or more than 30 days ahead), or a line's menu is not served at the order's time, and validate-and-update flags it in `catalogRevalidation` (SCHEDULE_CLOSED, CHANGE_FULFILLMENT). Set a time from `/time-intervals` with `PUT .../update-order-time`, then pay. A receipt says when the order should be ready (`readyAt`) and gives a short `orderNumber` to read out.",
  `**Lifetimes.** A cart left unchanged for ${hours(defaults.CART_IDLE_TTL_MINUTES)} expires (reads show it EXPIRED; changes are 409 CART_IMMUTABLE): start a new ordering session. Its \`cartAccessToken\` has no expiry of its own: it reads the cart while the service keeps it. A customer session lasts ${defaults.CUSTOMER_SESSION_TTL_HOURS / 24} days, or until logout; a one-time code, ${defaults.OTP_TTL_MINUTES} minutes. A stored idempotent answer replays for ${defaults.IDEMPOTENCY_RETENTION_HOURS} hours. (The defaults; a deployment may configure other values.)`,
  "**Versioning.** The API version is the path's (`/api/v1`); `info.version` is this document's. Within `/api/v1`, changes only add: new operations, new optional request members, new response members, new error codes (handle unknown codes by HTTP status) and new enum values where a field says so. Anything else comes under a new path version, served beside `/api/v1` while clients move; an operation to be removed is first marked `deprecated` in this document.",
  `**Limits.** A cart holds at most ${defaults.CART_MAX_LINES} lines and ${defaults.CART_MAX_LINE_QUANTITY} of one configuration per line (the defaults); product pages hold at most 500 (\`limit\`, \`cursor\`; a malformed cursor is 400). A waiter tip is a rate up to the location's \`maxRate\`, or an amount up to \`maxRate\` times the subtotal before discount; a courier tip has its own cap. Amounts have at most 13 integer and 2 fraction digits, and a total past 2^53 - 1 minor units is 400 naming the field that caused it. A rejected request changes nothing.`,
  "**Browsers.** Cross-origin calls are allowed only from the service's allowlist of exact origins.",
].join("\n\n");

const generatorOptions = {
  title: "Storefront Ordering Service",
  version: "2.0.0",
  description: apiDescription,
  license: { name: "MIT", identifier: "MIT" },
  baseUrl: OPENAPI_BASE_URL,
  tags: Object.keys(operationTags),
  defs: { ErrorEnvelope: errorEnvelopeSchema },
  securitySchemes: {
    cartToken: {
      type: "apiKey",
      in: "header",
      name: "X-Cart-Token",
      description: "Cart capability returned once by the ordering session (`cartAccessToken`); valid only for its cart.",
    },
    receiptToken: {
      type: "apiKey",
      in: "header",
      name: "X-Receipt-Token",
      description: "Receipt capability returned with a completed order result (`receiptToken`); valid only for its receipt.",
    },
    customerJwt: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description: "Merchant-bound customer session token returned by one-time-code sign-in.",
    },
  },
} satisfies GenerateOpenApiDocumentOptions;

let cached: OpenAPIObject | undefined;

/**
 * The OpenAPI 3.1 document of the REST API. The router is static, so it is built once per process
 * and frozen: callers share one instance and must not (cannot) change it.
 */
export function buildOpenApiDocument(): OpenAPIObject {
  if (!cached) {
    const generated = generateOpenApiDocument(appRouter, generatorOptions);
    const documented = postProcessDocument(generated, collectOperationFacts(appRouter._def.procedures));
    // Cloned before freezing: the generator's output can share objects with zod schema metadata
    // (examples and the like) that the REST adapter reads again when it generates its own copy.
    cached = deepFreeze(structuredClone(documented));
  }
  return cached;
}
