import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, HARBOR, startCart, type TestApp } from "../harness";
import { openApiValidator, type ObservedResponse } from "../openapi-validator";

/**
 * The harness validates every response against the OpenAPI document; these tests show the
 * validator really rejects what the document does not allow, so a clean suite means something.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const validator = openApiValidator();

async function observe(method: string, path: string, headers: Record<string, string> = {}): Promise<ObservedResponse> {
  // Observed raw so each test can tamper with it before validating.
  const response = await app.call(method, path, { headers, skipResponseValidation: true });
  return { method, path, status: response.status, headers: new Headers(response.headers), text: response.text };
}

const envelopeHeaders = (requestId: string) => new Headers({ "content-type": "application/json", "cache-control": "no-store", "x-request-id": requestId });

describe("the OpenAPI response validator", () => {
  it("accepts real responses of the service", async () => {
    const cart = await startCart(app);
    const read = await observe("GET", `/locations/${HARBOR.locationId}/carts/${cart.cartId}`, { "X-Cart-Token": cart.token });
    expect(read.status).toBe(200);
    expect(validator.problems(read)).toEqual([]);
    const missing = await observe("GET", `/locations/${HARBOR.locationId}/products/prd_does_not_exist`);
    expect(missing.status).toBe(404);
    expect(validator.problems(missing)).toEqual([]);
  });

  it("routes a literal segment before a parameter, exactly and after percent-decoding, like the service (server/http/rest-routes.ts)", () => {
    expect(validator.findOperation("GET", `/locations/${HARBOR.locationId}/products/popular?limit=3`)?.template).toBe("/locations/{locationId}/products/popular");
    expect(validator.findOperation("GET", `/locations/${HARBOR.locationId}/products/prd_hk_smash_burger`)?.template).toBe("/locations/{locationId}/products/{productId}");
    expect(validator.findOperation("get", `/locations/${HARBOR.locationId}/%6Denus`)?.template).toBe("/locations/{locationId}/menus");
    expect(validator.findOperation("get", `/LOCATIONS/${HARBOR.locationId}/Menus`)).toBeUndefined();
    expect(validator.findOperation("get", `/locations/${HARBOR.locationId}/menus/`)).toBeUndefined();
    expect(validator.findOperation("PUT", `/locations/${HARBOR.locationId}/menus`)).toBeUndefined();
    expect(validator.findOperation("GET", "/locations//menus")).toBeUndefined();
  });

  it("rejects an undocumented status", async () => {
    const read = await observe("GET", `/locations/${HARBOR.locationId}/menus`);
    expect(validator.problems({ ...read, status: 418 }).join()).toMatch(/status 418 is not documented/);
    expect(validator.problems({ ...read, status: 401 }).join()).toMatch(/status 401 is not documented/);
  });

  it("rejects a body that breaks the schema: an extra property, a wrong type, a missing field", async () => {
    const cart = await startCart(app);
    const read = await observe("GET", `/locations/${HARBOR.locationId}/carts/${cart.cartId}`, { "X-Cart-Token": cart.token });
    const body = JSON.parse(read.text) as Record<string, unknown>;
    expect(validator.problems({ ...read, text: JSON.stringify({ ...body, internalNote: "x" }) }).join()).toMatch(/additional properties \(internalNote\)/);
    expect(validator.problems({ ...read, text: JSON.stringify({ ...body, revision: "3" }) }).join()).toMatch(/\/revision must be integer/);
    const withoutTotal: Record<string, unknown> = { ...body };
    delete withoutTotal.orderTotal;
    expect(validator.problems({ ...read, text: JSON.stringify(withoutTotal) }).join()).toMatch(/must have required property 'orderTotal'/);
    expect(validator.problems({ ...read, text: "not json" }).join()).toMatch(/not JSON/);
  });

  it("rejects an error body that is not exactly the envelope, or whose requestId differs from the header", () => {
    const path = `/locations/${HARBOR.locationId}/menus`;
    const base = { method: "GET", path, status: 404, headers: envelopeHeaders("req_abcdefgh12345678") };
    expect(validator.problems({ ...base, text: JSON.stringify({ code: "NOT_FOUND", message: "gone", requestId: "req_abcdefgh12345678" }) })).toEqual([]);
    expect(validator.problems({ ...base, text: JSON.stringify({ code: "NOT_FOUND", message: "gone", requestId: "req_abcdefgh12345678", issues: [] }) }).join()).toMatch(/additional properties \(issues\)/);
    expect(validator.problems({ ...base, text: JSON.stringify({ code: "NOT_FOUND", message: "", requestId: "req_abcdefgh12345678" }) }).join()).toMatch(/\/message must NOT have fewer than 1 characters/);
    expect(validator.problems({ ...base, text: JSON.stringify({ code: "NOT_FOUND", message: "gone", requestId: "req_other_1234567" }) }).join()).toMatch(/differs from X-Request-Id/);
  });

  it("rejects an error code the operation does not list at that status", () => {
    const requestId = "req_abcdefgh12345678";
    const answer = (method: string, path: string, status: number, code: string) => ({
      method,
      path,
      status,
      headers: envelopeHeaders(requestId),
      text: JSON.stringify({ code, message: "refused", requestId }),
    });
    const cart = `/locations/${HARBOR.locationId}/carts/cart_1`;
    expect(validator.problems(answer("POST", `${cart}/items`, 409, "CART_CONFLICT"))).toEqual([]);
    expect(validator.problems(answer("POST", "/customer/auth/login", 409, "IDEMPOTENCY_KEY_REUSED"))).toEqual([]);
    expect(validator.problems(answer("POST", "/customer/auth/login", 409, "CART_CONFLICT")).join()).toMatch(/code CART_CONFLICT is not one this operation documents at 409/);
    expect(validator.problems(answer("PUT", `${cart}/gratuity`, 409, "RESOURCE_CONFLICT")).join()).toMatch(/code RESOURCE_CONFLICT is not one/);
    expect(validator.problems(answer("GET", cart, 400, "IDEMPOTENCY_KEY_REQUIRED")).join()).toMatch(/code IDEMPOTENCY_KEY_REQUIRED is not one/);
    expect(validator.problems(answer("GET", "/no/such/path", 404, "CART_IMMUTABLE")).join()).toMatch(/code CART_IMMUTABLE is not one/);
    expect(validator.problems(answer("GET", "/no/such/path", 400, "IDEMPOTENCY_KEY_REQUIRED")).join()).toMatch(/code IDEMPOTENCY_KEY_REQUIRED is not one/);
  });

  it("rejects missing required headers and malformed documented ones", async () => {
    const read = await observe("GET", `/locations/${HARBOR.locationId}/menus`);
    const withoutId = new Headers(read.headers);
    withoutId.delete("x-request-id");
    expect(validator.problems({ ...read, headers: withoutId }).join()).toMatch(/required header X-Request-Id is missing/);
    const withoutEtag = new Headers(read.headers);
    withoutEtag.delete("etag");
    expect(validator.problems({ ...read, headers: withoutEtag }).join()).toMatch(/required header ETag is missing/);
    const badLimit = new Headers(read.headers);
    badLimit.set("x-ratelimit-remaining", "-3");
    expect(validator.problems({ ...read, headers: badLimit }).join()).toMatch(/header X-RateLimit-Remaining/);
  });

  it("requires a 404 envelope for a path no operation documents", () => {
    const headers = envelopeHeaders("req_abcdefgh12345678");
    const envelope = JSON.stringify({ code: "NOT_FOUND", message: "No operation", requestId: "req_abcdefgh12345678" });
    expect(validator.problems({ method: "GET", path: "/no/such/path", status: 404, headers, text: envelope })).toEqual([]);
    expect(validator.problems({ method: "GET", path: "/no/such/path", status: 200, headers, text: "{}" }).join()).toMatch(/must be 404/);
    expect(validator.problems({ method: "GET", path: "/no/such/path", status: 404, headers, text: "{}" }).join()).toMatch(/required property 'code'/);
  });

  it("fails the calling test with the operation, the status and the problems", () => {
    const observed = { method: "GET", path: `/locations/${HARBOR.locationId}/menus`, status: 418, headers: envelopeHeaders("req_abcdefgh12345678"), text: "{}" };
    expect(() => validator.assertDocumented(observed)).toThrow(/GET \/locations\/loc_harbor_kitchen_downtown\/menus -> 418, .*GET \/locations\/\{locationId\}\/menus\)\n {2}- status 418 is not documented/);
  });
});
