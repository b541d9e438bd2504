import { describe, expect, it } from "vitest";
import { codeToStatus, errorCodes, type ErrorCode } from "../errors";
import { appRouter } from "../routers";
import { cartWriteHeaders } from "../schemas/common";
import type { StorefrontMeta } from "../trpc/init";
import { buildOpenApiDocument } from "./document";
import { errorCodesByStatus } from "./error-catalog";
import type { Operation } from "./post-process";

type Json = Record<string, unknown>;
type Meta = NonNullable<StorefrontMeta["openapi"]>;
type Route = { name: string; method: string; path: string; openapi: Meta; successStatus: number | undefined; kind: StorefrontMeta["kind"] };

const document = buildOpenApiDocument();

/**
 * The REST-exposed procedures, read straight from the router (independently of the document code).
 * tRPC types `_def.procedures` as the nested router record; at run time it is the flat map.
 */
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: StorefrontMeta } }>;
const routes: Route[] = Object.entries(procedures).flatMap(
  ([name, procedure]) => {
    const meta = procedure._def.meta;
    if (!meta?.openapi || meta.openapi.enabled === false) return [];
    return [{ name, method: meta.openapi.method.toLowerCase(), path: meta.openapi.path, openapi: meta.openapi, successStatus: meta.successStatus, kind: meta.kind }];
  },
);

function operationOf(route: Pick<Route, "method" | "path">): Operation {
  const operation = (document.paths?.[route.path] as Record<string, Operation | undefined> | undefined)?.[route.method];
  if (!operation) throw new Error(`${route.method.toUpperCase()} ${route.path} is not documented`);
  return operation;
}

/** Follows a local `$ref` ("#/components/...") to the object it names. */
function resolve(value: unknown): Json {
  let current = value as Json;
  for (let hops = 0; typeof current.$ref === "string" && hops < 8; hops++) {
    const pointer = current.$ref.replace(/^#\//, "").split("/");
    current = pointer.reduce<unknown>((node, key) => (node as Json)[key], document) as Json;
    if (current === undefined) throw new Error(`unresolved reference ${String(value)}`);
  }
  return current;
}

const responsesOf = (operation: Operation) => operation.responses as Record<string, unknown>;

function headerParameters(operation: Operation): Map<string, Json> {
  const parameters = (operation.parameters ?? []).map(resolve).filter((parameter) => parameter.in === "header");
  return new Map(parameters.map((parameter) => [String(parameter.name), parameter]));
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with the service's info, server and credentials", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.title).toBe("Storefront Ordering Service");
    expect(document.info.version).toBe("2.0.0");
    expect(document.info.description).toMatch(/Idempotency-Key/);
    expect(document.info.license?.name).toBe("MIT");
    expect(document.info.contact).toBeUndefined();
    expect(document.servers).toEqual([expect.objectContaining({ url: "/api/v1/storefront" })]);
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(expect.arrayContaining(["cartToken", "customerJwt"]));
  });

  it("is built once per process", () => {
    expect(buildOpenApiDocument()).toBe(document);
  });

  it("documents every REST procedure under its method and path", () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const operation = operationOf(route);
      expect(operation.summary, route.name).toBeTruthy();
      expect(operation.description, route.name).toBeTruthy();
      if (route.openapi.operationId) expect(operation.operationId, route.name).toBe(route.openapi.operationId);
    }
    const documented = Object.values(document.paths ?? {}).flatMap((item) => ["get", "put", "post", "delete", "patch"].filter((method) => method in item));
    expect(documented).toHaveLength(routes.length);
  });

  it("gives the update-order-time operation its contract operationId", () => {
    expect(operationOf({ method: "put", path: "/locations/{locationId}/carts/{cartId}/update-order-time" }).operationId).toBe(
      "storefrontUpdateCartOrderTime",
    );
  });

  it("documents the real success status: 201 for the ordering session, the meta's status everywhere", () => {
    const session = responsesOf(operationOf({ method: "post", path: "/locations/{locationId}/ordering-sessions" }));
    expect(session).toHaveProperty("201");
    expect(session).not.toHaveProperty("200");
    for (const route of routes) {
      const status = String(route.successStatus ?? 200);
      expect(responsesOf(operationOf(route)), route.name).toHaveProperty(status);
    }
  });

  it("answers every error with the ErrorEnvelope, on each declared status plus 400/429/500/503", () => {
    for (const route of routes) {
      const responses = responsesOf(operationOf(route));
      const declared = Array.isArray(route.openapi.errorResponses) ? route.openapi.errorResponses : Object.keys(route.openapi.errorResponses ?? {}).map(Number);
      for (const status of [...declared, 400, 429, 500, 503]) expect(responses, `${route.name} ${status}`).toHaveProperty(String(status));
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const content = resolve(response).content as Record<string, { schema: Json }>;
        expect(content["application/json"]?.schema, `${route.name} ${status}`).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
        expect(resolve(response).headers, `${route.name} ${status}`).toHaveProperty("X-Request-Id");
      }
    }
  });

  it("defines the closed error envelope and drops the generator's error schemas", () => {
    const schemas = document.components?.schemas ?? {};
    expect(schemas.ErrorEnvelope).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["code", "message", "requestId"],
      properties: { code: { type: "string" }, message: { type: "string", minLength: 1 }, requestId: { type: "string", minLength: 8 }, details: { type: "object" } },
    });
    expect(Object.keys(schemas).filter((name) => name.startsWith("error."))).toEqual([]);
  });

  it("lists the codes of each status from codeToStatus", () => {
    expect(errorCodesByStatus().get(409)).toEqual([
      "CART_CONFLICT",
      "REQUOTE_REQUIRED",
      "RESOURCE_CONFLICT",
      "CART_IMMUTABLE",
      "IDEMPOTENCY_KEY_REUSED",
      "IDEMPOTENCY_IN_PROGRESS",
    ]);
    const responses = document.components?.responses ?? {};
    for (const code of errorCodes) {
      const response = responses[`Error${codeToStatus[code]}`];
      if (response) expect(resolve(response).description, code).toContain(code);
    }
    expect(resolve(responses.Error429).headers).toHaveProperty("Retry-After");
    expect(resolve(responses.Error503).headers).toHaveProperty("Retry-After");
  });

  it("lists each operation's own codes at each error status, from its kind and its declared conflicts", () => {
    const codesAt = (route: Route, status: number) => {
      const codes = (resolve(responsesOf(operationOf(route))[String(status)]) as { "x-error-codes"?: unknown })["x-error-codes"];
      expect(Array.isArray(codes), `${route.name} ${status}`).toBe(true);
      return codes as string[];
    };
    for (const route of routes) {
      const kind = route.kind;
      for (const [status, response] of Object.entries(responsesOf(operationOf(route)))) {
        if (Number(status) < 400) continue;
        const codes = codesAt(route, Number(status));
        expect(codes.length, `${route.name} ${status}`).toBeGreaterThan(0);
        for (const code of codes) expect(codeToStatus[code as ErrorCode], `${route.name} ${code}`).toBe(Number(status));
        // What each code means is in the text beside it.
        for (const code of codes) expect(resolve(response).description, `${route.name} ${code}`).toContain(code);
        if (Number(status) !== 409) continue;
        const idempotent = kind !== "anonymousRead" && kind !== "cartRead" && kind !== "receiptRead" && kind !== "customerRead";
        expect(codes.includes("IDEMPOTENCY_KEY_REUSED"), route.name).toBe(idempotent);
        expect(codes.includes("CART_CONFLICT"), route.name).toBe(kind === "cartMutation");
        expect(codes.includes("CART_IMMUTABLE"), route.name).toBe(kind === "cartMutation" || route.name === "checkout.payments");
      }
    }
    const byName = (name: string) => routes.find((route) => route.name === name) ?? expect.unreachable(name);
    expect(codesAt(byName("customer.login"), 409)).toEqual(["IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_IN_PROGRESS"]);
    expect(codesAt(byName("carts.addItem"), 409)).toEqual(["CART_CONFLICT", "CART_IMMUTABLE", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_IN_PROGRESS"]);
    expect(codesAt(byName("carts.get"), 400)).toEqual(["VALIDATION_ERROR"]);
    expect(codesAt(byName("carts.addItem"), 400)).toEqual(["VALIDATION_ERROR", "IDEMPOTENCY_KEY_REQUIRED"]);
  });

  it("requires Idempotency-Key and If-Match on cart mutations, with either credential header optional", () => {
    const mutations = routes.filter((route) => route.openapi.requestHeaders === cartWriteHeaders);
    expect(mutations.map((route) => route.name)).toEqual(expect.arrayContaining(["carts.addItem", "carts.updateOrderTime", "carts.expire"]));
    for (const route of mutations) {
      const operation = operationOf(route);
      const headers = headerParameters(operation);
      for (const name of ["Idempotency-Key", "If-Match"]) {
        expect(headers.get(name), `${route.name} ${name}`).toMatchObject({ required: true, description: expect.any(String) as unknown });
      }
      for (const name of ["X-Cart-Token", "Authorization"]) {
        expect(headers.get(name), `${route.name} ${name}`).toMatchObject({ required: false, description: expect.any(String) as unknown });
      }
      expect(operation.security).toEqual([{ cartToken: [] }, { customerJwt: [] }]);
      const success = resolve(responsesOf(operation)[String(route.successStatus ?? 200)]);
      expect(Object.keys(success.headers as Json)).toEqual(expect.arrayContaining(["ETag", "Cache-Control"]));
    }
  });

  it("requires an Idempotency-Key on every write and documents its replays", () => {
    for (const route of routes.filter((candidate) => candidate.method !== "get")) {
      const operation = operationOf(route);
      expect(headerParameters(operation).get("Idempotency-Key"), route.name).toMatchObject({ required: true });
      const success = resolve(responsesOf(operation)[String(route.successStatus ?? 200)]);
      expect(success.headers, route.name).toHaveProperty("Idempotent-Replayed");
    }
  });

  it("documents one of the accepted credentials as the security requirement of protected operations", () => {
    for (const route of routes.filter((candidate) => candidate.openapi.protect !== false)) {
      const operation = operationOf(route);
      expect(operation.security?.length, route.name).toBeGreaterThan(0);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(document.components?.securitySchemes, route.name).toHaveProperty(scheme);
      }
    }
  });

  it("documents ETag, If-None-Match and 304 Not Modified on anonymous GETs", () => {
    const anonymousGets = routes.filter((route) => route.method === "get" && route.openapi.protect === false);
    expect(anonymousGets.length).toBeGreaterThan(0);
    for (const route of anonymousGets) {
      const operation = operationOf(route);
      const responses = responsesOf(operation);
      expect(responses, route.name).toHaveProperty("304");
      expect(resolve(responses["304"]).content, route.name).toBeUndefined();
      expect(resolve(responses["200"]).headers, route.name).toHaveProperty("ETag");
      expect(headerParameters(operation).get("If-None-Match"), route.name).toMatchObject({ required: false });
      expect(operation.security, route.name).toEqual([]);
    }
  });

  it("documents every request body closed, as the server validates it (an unknown member is 400)", () => {
    /** Paths to object schemas that allow members they do not name. */
    const open = (schema: Json, at: string): string[] => {
      const resolved = resolve(schema);
      const own = resolved.type === "object" && resolved.additionalProperties !== false ? [at] : [];
      const properties = Object.entries((resolved.properties ?? {}) as Record<string, Json>).flatMap(([name, property]) => open(property, `${at}.${name}`));
      const items = resolved.items ? open(resolved.items as Json, `${at}[]`) : [];
      return [...own, ...properties, ...items];
    };
    const documented = routes.filter((route) => operationOf(route).requestBody !== undefined);
    expect(documented.length).toBeGreaterThan(20);
    for (const route of documented) {
      const body = resolve(operationOf(route).requestBody) as { content: Record<string, { schema: Json }> };
      expect(open(body.content["application/json"]?.schema ?? {}, "body"), `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it("documents the spec's bounds where clients read them: DeliveryAddress lat/lng, the If-Match format", () => {
    const address = resolve(document.components?.schemas?.DeliveryAddress) as { properties: Record<string, Json> };
    expect(address.properties.lat).toMatchObject({ minimum: -90, maximum: 90 });
    expect(address.properties.lng).toMatchObject({ minimum: -180, maximum: 180 });
    const addItem = operationOf({ method: "post", path: "/locations/{locationId}/carts/{cartId}/items" });
    const ifMatch = resolve(headerParameters(addItem).get("If-Match")) as { schema: { pattern: string } };
    const pattern = new RegExp(ifMatch.schema.pattern);
    for (const valid of ['"cart-0"', '"cart-12"', 'W/"cart-3"']) expect(pattern.test(valid), valid).toBe(true);
    for (const invalid of ['"cart-00"', "cart-1", '"cart-01"', "*"]) expect(pattern.test(invalid), invalid).toBe(false);
  });

  it("documents the cart read as not conditional: its ETag is the revision", () => {
    const cartRead = operationOf({ method: "get", path: "/locations/{locationId}/carts/{cartId}" });
    expect(responsesOf(cartRead)).not.toHaveProperty("304");
    expect(headerParameters(cartRead).has("If-None-Match")).toBe(false);
    expect(cartRead.description).toMatch(/\*\*Not conditional:\*\*/);
    expect(resolve(responsesOf(cartRead)["200"]).headers).toHaveProperty("ETag");
  });

  it("hoists each distinct declared response header into one component", () => {
    const headers = Object.keys(document.components?.headers ?? {});
    expect(headers).toEqual(expect.arrayContaining(["ETag", "CacheControl", "RequestId", "ErrorRetryAfter"]));
    expect(headers.filter((key) => /^(ETag|CacheControl)\d+$/.test(key))).toEqual([]);
  });

  it("puts the request id and rate-limit headers on every success", () => {
    for (const route of routes) {
      const success = resolve(responsesOf(operationOf(route))[String(route.successStatus ?? 200)]);
      expect(Object.keys(success.headers as Json), route.name).toEqual(
        expect.arrayContaining(["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
      );
    }
    expect(resolve(document.components?.headers?.RateLimitReset).description).toMatch(/epoch seconds/);
  });
});
