import { generateOpenApiDocument, type GenerateOpenApiDocumentOptions, type OpenAPIObject } from "trpc-to-openapi";
import { appRouter } from "../routers";
import type { StorefrontMeta } from "../trpc/init";
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
    const errorResponses = openapi.errorResponses ?? [];
    if (!meta.kind) throw new Error(`${openapi.method} ${openapi.path}: the procedure's meta declares no kind (server/routers/meta.ts)`);
    facts.push({
      method,
      path: normalizePath(openapi.path),
      kind: meta.kind,
      successStatus: meta?.successStatus ?? 200,
      errorStatuses: Array.isArray(errorResponses) ? errorResponses : Object.keys(errorResponses).map(Number),
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

const generatorOptions = {
  title: "Storefront Ordering Service",
  version: "2.0.0",
  baseUrl: OPENAPI_BASE_URL,
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
