import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_PREFIX } from "../../server/http/rest-handler";
import { createTestApp, HARBOR, idemKey, startCart, type TestApp, type TestResponse } from "../harness";

/**
 * The edges of the API prefix, where a framework would otherwise answer in its own terms: the bare
 * prefix, trailing slashes, methods no operation takes, HEAD, percent-encoded path parameters and
 * bodies on operations that take none. Each answer is the contract's: the error envelope with
 * X-Request-Id, and nothing changed.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const menus = `/locations/${HARBOR.locationId}/menus`;

/**
 * Through Next's route (REST_MOUNT=next, what Vercel runs), Next answers a few requests itself before
 * the handler runs: it redirects `//` (308), refuses methods it does not know (bare 400), fails on a
 * malformed escape (500) and drops a HEAD answer's Content-Length. `npm start`'s direct mount answers
 * all of them in the contract's terms; the OpenAPI document's description ("Paths and methods") says so.
 */
const framework = process.env.TEST_REST_MOUNT === "next";

function expectEnvelope(response: TestResponse | { status: number; headers: Headers; body: unknown }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const body = response.body as { code: string; message: string; requestId: string };
  expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(["code", "message", "requestId"]) as unknown);
  expect(body.code).toBe(code);
  expect(body.requestId).toBe(response.headers.get("x-request-id"));
}

/** A request to any path, not only those under the prefix the harness's `call` builds. */
async function raw(method: string, path: string, init: RequestInit = {}) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { method, ...init }));
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

describe("the prefix itself and paths no operation has", () => {
  it("answers the bare prefix, a trailing slash and an empty segment with the 404 envelope", async () => {
    for (const path of [REST_PREFIX, `${REST_PREFIX}/`, `${REST_PREFIX}${menus}/`, ...(framework ? [] : [`${REST_PREFIX}/locations//menus`])]) {
      const response = await raw("GET", path);
      expectEnvelope(response, 404, "NOT_FOUND");
      expect(response.headers.get("x-ratelimit-remaining"), path).not.toBeNull();
    }
    expect(((await raw("GET", `${REST_PREFIX}${menus}/`)).body as { message: string }).message).toMatch(/trailing slash/);
  });

  it("answers a known path with another method 405 with Allow, TRACE and unusual methods included", async () => {
    for (const method of ["PUT", "DELETE", "PATCH", ...(framework ? [] : ["TRACE", "PROPFIND"])]) {
      let response: Awaited<ReturnType<typeof raw>>;
      try {
        response = await raw(method, `${REST_PREFIX}${menus}`);
      } catch (error) {
        // fetch itself refuses TRACE (a forbidden method); the production target's test below sends it over a socket.
        if (method === "TRACE") continue;
        throw error;
      }
      expectEnvelope(response, 405, "METHOD_NOT_ALLOWED");
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    const cartPath = `${REST_PREFIX}/locations/${HARBOR.locationId}/carts/cart_x`;
    expect((await raw("POST", cartPath, { headers: { "content-type": "application/json" }, body: "{}" })).headers.get("allow")).toBe("GET, DELETE, HEAD, OPTIONS");
  });

  it("answers a malformed percent-escape with the 400 envelope naming the path (refused by Next first on its mount)", async () => {
    const response = await raw("GET", `${REST_PREFIX}/locations/%ff/menus`);
    if (framework) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      return;
    }
    expectEnvelope(response, 400, "VALIDATION_ERROR");
    expect(response.body).toMatchObject({ details: { fields: [{ path: "path" }] } });
  });


  it("runs the operation whatever Next-internal header a request carries (on Next's mount, x-middleware-prefetch is Next's 200 {} with nothing done)", async () => {
    const response = await raw("GET", `${REST_PREFIX}/locations/${HARBOR.locationId}/time-intervals`, { headers: { "x-middleware-prefetch": "1" } });
    expect(response.status).toBe(200);
    if (framework) {
      expect(response.body).toEqual({});
      return;
    }
    expect(response.body).toMatchObject({ locationId: HARBOR.locationId });
  });

  it("literal segments match exactly: another case is no operation", async () => {
    expectEnvelope(await raw("GET", `${REST_PREFIX}/LOCATIONS/${HARBOR.locationId}/menus`), 404, "NOT_FOUND");
  });
});

describe("path parameters are compared after percent-decoding", () => {
  it("finds the same location by an encoded id, and refuses a decoded value outside the identifier rules naming the parameter", async () => {
    const encoded = HARBOR.locationId.replace(/-/g, "%2D").replace(/_/g, "%5F");
    expect(encoded).not.toBe(HARBOR.locationId);
    const plain = await app.call("GET", menus);
    const viaEncoded = await app.call("GET", `/locations/${encoded}/menus`);
    expect(viaEncoded.status).toBe(200);
    expect(viaEncoded.text).toBe(plain.text);
    // (`%2E%2E` never arrives as a parameter: URL parsers treat it as `..` and resolve it away.)
    for (const bad of ["a%2Fb", "a%00b", "a%20b", "%E2%80%AE", "x".repeat(129)]) {
      const response = await app.call("GET", `/locations/${bad}/menus`);
      expectEnvelope(response, 400, "VALIDATION_ERROR");
      expect(response.body, bad).toMatchObject({ details: { fields: [{ path: "locationId" }] } });
    }
  });
});

describe("HEAD", () => {
  it("answers every anonymous read as GET would, without a body", async () => {
    for (const path of [menus, `/locations/${HARBOR.locationId}`, `/locations/${HARBOR.locationId}/products?limit=2`]) {
      const get = await app.call("GET", path);
      const head = await app.call("HEAD", path);
      expect(head.status, path).toBe(200);
      expect(head.text).toBe("");
      for (const name of ["etag", "cache-control", "content-type"]) expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
      if (!framework) expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(get.text));
      expect(head.headers.get("x-request-id")).toBeTruthy();
    }
  });

  it("answers a cart read as GET would, with the same credential rules", async () => {
    const cart = await startCart(app);
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}`;
    const head = await app.call("HEAD", path, { headers: { "X-Cart-Token": cart.token } });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(cart.etag);
    expect(head.headers.get("cache-control")).toBe("private, no-store");
    const refused = await app.call("HEAD", path);
    expect(refused.status).toBe(401);
    expect(refused.text).toBe("");
    expect(refused.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("bodies on operations that take none", () => {
  it("refuses anything but no body or {} on DELETE, and leaves the cart open", async () => {
    const cart = await startCart(app);
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}`;
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "content-type": "application/json" };
    for (const rawBody of ["not json", "[]", '{"status":"OPEN"}', "null", "1"]) {
      const response = await app.call("DELETE", path, { headers: { ...headers, "Idempotency-Key": idemKey() }, rawBody });
      expectEnvelope(response, 400, "VALIDATION_ERROR");
    }
    expect((await app.call("GET", path, { headers: { "X-Cart-Token": cart.token } })).body).toMatchObject({ status: "OPEN" });
    const expired = await app.call("DELETE", path, { headers: { ...headers, "Idempotency-Key": idemKey() }, rawBody: "{}" });
    expect(expired.status, expired.text).toBe(200);
  });

  it("refuses members on payment-session and logout, which the document describes as {}", async () => {
    const cart = await startCart(app);
    const session = await app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/payment-session`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { amount: "0.01" },
    });
    expectEnvelope(session, 400, "VALIDATION_ERROR");
    const logout = await app.call("DELETE", "/customer/logout", { headers: { "Idempotency-Key": idemKey(), "content-type": "application/json" }, rawBody: "[]" });
    expectEnvelope(logout, 400, "VALIDATION_ERROR");
  });
});

describe("the OpenAPI document", () => {
  it("carries X-Request-Id and answers HEAD", async () => {
    const get = await raw("GET", `${REST_PREFIX}/openapi.json`);
    expect(get.status).toBe(200);
    expect(get.headers.get("x-request-id")).toMatch(/^req_/);
    const head = await raw("HEAD", `${REST_PREFIX}/openapi.json`);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
  });
});

