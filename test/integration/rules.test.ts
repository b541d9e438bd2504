import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/routers";
import { bearer, signIn } from "../customer-helpers";
import { cartCredential, createTestApp, DUNE, HARBOR, idemKey, startCart, type TestApp, type TestResponse } from "../harness";
import { loadFixtures, prepareCart, routeCases, send, validHeaders, type RouteCase } from "../routes";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { CORS_ALLOWED_ORIGINS: "https://shop.example.com,https://m.example.com" } });
  await loadFixtures(app);
});
afterAll(async () => {
  await app.close();
});

const writes = routeCases.filter((route) => route.kind === "anonymousWrite" || route.kind === "cartMutation" || route.kind === "checkout" || route.kind === "customerMutation");
const customerRoutes = routeCases.filter((route) => route.kind === "customerRead" || route.kind === "customerMutation");
const withPathParameters = routeCases.filter((route) => !route.noPathParameters);
const cartRoutes = routeCases.filter((route) => route.kind === "cartRead" || route.kind === "cartMutation" || route.kind === "checkout");
const receiptRoutes = routeCases.filter((route) => route.kind === "receiptRead");
const mutations = routeCases.filter((route) => route.kind === "cartMutation");
const withBody = routeCases.filter((route) => route.body !== undefined);

/** The spec's envelope exactly: code, message, requestId, optional details, nothing else. */
function expectEnvelope(response: TestResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).filter((key) => !["code", "message", "requestId", "details"].includes(key))).toEqual([]);
  expect(body.code).toBe(code);
  expect(typeof body.message === "string" && body.message.length > 0).toBe(true);
  expect(typeof body.requestId === "string" && body.requestId.length >= 8).toBe(true);
  expect(response.headers.get("x-request-id")).toBe(body.requestId);
  if ("details" in body) expect(typeof body.details).toBe("object");
  return body as { code: string; message: string; requestId: string; details?: Record<string, unknown> };
}

describe("the route table", () => {
  it("covers every procedure of the router", () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(routeCases.map((route) => route.procedure).sort()).toEqual(procedures);
  });
});

describe.each(routeCases)("$name", (route: RouteCase) => {
  it("succeeds with a valid request, with X-Request-Id and rate-limit headers", async () => {
    const cart = await prepareCart(app, route);
    const response = await send(app, route, cart, validHeaders(route, cart));
    expect(response.status, response.text).toBe(route.successStatus ?? (route.name === "POST ordering session" ? 201 : 200));
    expect(response.headers.get("x-request-id")).toMatch(/^req_.{8,}/);
    expect(Number(response.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
    expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(Number(response.headers.get("x-ratelimit-reset"))).toBeLessThan(Date.now() / 1000 + 3600);
  });

  it("refuses a credential in the query string with 400 and does not honour it", async () => {
    const cart = await prepareCart(app, route);
    const separator = route.path(cart).includes("?") ? "&" : "?";
    for (const name of ["cartToken", "Cart-Token"]) {
      const response = await send(app, route, cart, validHeaders(route, cart), { pathSuffix: `${separator}${name}=${cart.token}` });
      expectEnvelope(response, 400, "VALIDATION_ERROR");
    }
  });

  it("reflects only allowlisted origins and always varies on Origin", async () => {
    const cart = await prepareCart(app, route);
    const allowed = await send(app, route, cart, { ...validHeaders(route, cart), Origin: "https://shop.example.com" });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    expect(allowed.headers.get("access-control-expose-headers")).toMatch(/ETag.*X-Request-Id.*X-RateLimit-Remaining/);
    expect(allowed.headers.get("vary")).toMatch(/Origin/);
    const other = await send(app, route, cart, { ...validHeaders(route, cart), Origin: "https://evil.example.com" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("vary")).toMatch(/Origin/);
  });
});

describe.each(withPathParameters)("path parameters: $name", (route) => {
  it("answers an invalid path parameter with 400 VALIDATION_ERROR naming the field", async () => {
    const cart = await prepareCart(app, route);
    const tooLong = "x".repeat(129);
    const path = route.invalidPath?.(cart) ?? route.path(cart).replace(/loc_harbor_kitchen_downtown|harbor-kitchen-downtown|loc_dune_grill_marina/, tooLong);
    const response = await app.call(route.method, path, { headers: validHeaders(route, cart), body: route.body?.(cart) });
    const body = expectEnvelope(response, 400, "VALIDATION_ERROR");
    expect(JSON.stringify(body.details)).toMatch(route.invalidParam ?? /location/);
  });
});

describe.each(writes)("write: $name", (route) => {
  it("needs an Idempotency-Key (400 IDEMPOTENCY_KEY_REQUIRED) and changes nothing without one", async () => {
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    delete headers["Idempotency-Key"];
    expectEnvelope(await send(app, route, cart, headers), 400, "IDEMPOTENCY_KEY_REQUIRED");
    const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
    expect(after.headers.get("etag")).toBe(cart.etag);
  });

  it("rejects a key that breaks the spec's pattern with 400", async () => {
    const cart = await prepareCart(app, route);
    for (const key of ["short", "has spaces in it here!", "x".repeat(129), "ümlaut-keys-are-not-allowed"]) {
      expectEnvelope(await send(app, route, cart, { ...validHeaders(route, cart), "Idempotency-Key": key }), 400, "VALIDATION_ERROR");
    }
  });

  it("replays a retry of the identical request: same status, body and ETag, one effect", async () => {
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    const first = await send(app, route, cart, headers);
    expect(first.status, first.text).toBeLessThan(300);
    const retry = await send(app, route, cart, headers);
    expect(retry.status).toBe(first.status);
    if (route.kind === "anonymousWrite" && first.text.includes('"cartAccessToken"')) {
      // An anonymous caller is known only by its address: the replay carries everything but the credential (test/integration/idempotency-scope.test.ts).
      const { cartAccessToken: _token, ...rest } = JSON.parse(first.text) as Record<string, unknown>;
      expect(JSON.parse(retry.text)).toEqual(rest);
    } else {
      expect(retry.text).toBe(first.text);
    }
    expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    if (route.kind === "cartMutation") {
      const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
      expect(after.headers.get("etag")).toBe(first.headers.get("etag"));
    }
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED for the same key on a different request", async () => {
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    const first = await send(app, route, cart, headers);
    expect(first.status, first.text).toBeLessThan(300);
    const different = route.body ? { ...route.body(cart), unexpectedButDifferent: undefined, marker: 1 } : undefined;
    const changedHeaders = different ? headers : { ...headers, "If-Match": '"cart-999"' };
    const reused = await app.call(route.method, route.path(cart), { headers: changedHeaders, body: different });
    // A different body may fail validation first (strict bodies); either way it must never replay.
    expect([400, 409]).toContain(reused.status);
    expect(reused.headers.get("idempotent-replayed")).toBeNull();
    if (reused.status === 409) expect((reused.body as { code: string }).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });
});

describe.each(mutations)("cart mutation: $name", (route) => {
  it("answers 428 without If-Match, 400 for a malformed one, and changes nothing", async () => {
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    delete headers["If-Match"];
    expectEnvelope(await send(app, route, cart, headers), 428, "PRECONDITION_REQUIRED");
    for (const bad of ['"cart-01"', "cart-1", '"cart--1"', "*"]) {
      expectEnvelope(await send(app, route, cart, { ...validHeaders(route, cart), "If-Match": bad }), 400, "VALIDATION_ERROR");
    }
    const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
    expect(after.headers.get("etag")).toBe(cart.etag);
  });

  it("answers a stale If-Match with 409 CART_CONFLICT carrying the current revision", async () => {
    const cart = await prepareCart(app, route);
    const current = Number(/cart-(\d+)/.exec(cart.etag)?.[1]);
    const response = await send(app, route, cart, { ...validHeaders(route, cart), "If-Match": `W/"cart-${current - 1}"` });
    const body = expectEnvelope(response, 409, "CART_CONFLICT");
    expect(body.details).toMatchObject({ currentRevision: current });
  });

  it("answers a successful change with the Cart, a new ETag and private, no-store", async () => {
    const cart = await prepareCart(app, route);
    const response = await send(app, route, cart, validHeaders(route, cart));
    expect(response.status, response.text).toBe(200);
    const revision =
      route.returnsCart === false
        ? ((await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) })).body as { revision: number }).revision
        : (response.body as { revision: number }).revision;
    expect(response.headers.get("etag")).toBe(`"cart-${revision}"`);
    expect(response.headers.get("etag")).not.toBe(cart.etag);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("refuses an expired cart with 409 CART_IMMUTABLE", async () => {
    const cart = await prepareCart(app, route);
    const expired = await app.call("DELETE", `/locations/${cart.locationId}/carts/${cart.cartId}`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
    });
    expect(expired.status).toBe(200);
    expect((expired.body as { status: string }).status).toBe("EXPIRED");
    cart.etag = expired.headers.get("etag") ?? "";
    expectEnvelope(await send(app, route, cart, validHeaders(route, cart)), 409, "CART_IMMUTABLE");
  });
});

describe.each(cartRoutes)("cart credential: $name", (route) => {
  it("is 401 without a credential, 401 for an unknown token, 403 for another cart's token, 404 for a missing cart", async () => {
    const cart = await prepareCart(app, route);
    const other = await startCart(app);
    const headers = validHeaders(route, cart);
    delete headers["X-Cart-Token"];
    expectEnvelope(await send(app, route, cart, headers), 401, "UNAUTHORIZED");
    expectEnvelope(await send(app, route, cart, { ...headers, "X-Cart-Token": "ct_not-a-real-token" }), 401, "UNAUTHORIZED");
    expectEnvelope(await send(app, route, cart, { ...headers, "X-Cart-Token": other.token }), 403, "FORBIDDEN");
    const missing = { ...cart, cartId: "cart_does_not_exist" };
    expectEnvelope(await send(app, route, missing, validHeaders(route, cart)), 404, "NOT_FOUND");
  });
});

describe.each(receiptRoutes)("receipt credential: $name", (route) => {
  it("is 401 without a token or with an unknown one, 403 with another receipt's token, 404 for a missing receipt; a cart token is not one", async () => {
    const cart = await prepareCart(app, route);
    const other = await prepareCart(app, route);
    expectEnvelope(await send(app, route, cart, {}), 401, "UNAUTHORIZED");
    expectEnvelope(await send(app, route, cart, { "X-Receipt-Token": "rt_not-a-real-token" }), 401, "UNAUTHORIZED");
    expectEnvelope(await send(app, route, cart, { "X-Receipt-Token": cart.token }), 401, "UNAUTHORIZED");
    expectEnvelope(await send(app, route, cart, { "X-Receipt-Token": other.receiptToken }), 403, "FORBIDDEN");
    expectEnvelope(await send(app, route, { ...cart, receiptId: "rcpt_does_not_exist" }, validHeaders(route, cart)), 404, "NOT_FOUND");
  });
});

/** Header values that are not a live customer token of this service. */
function invalidBearers(cart: { token: string; receiptToken: string }): string[] {
  const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const algNone = `${segment({ alg: "none", typ: "JWT" })}.${segment({ sub: "cust_x", mid: "mer_x", sid: "ses_x", aud: "storefront:customer", exp: 9999999999 })}.`;
  return ["Bearer garbage", `Bearer ${algNone}`, `Bearer ${cart.token || "ct_not-a-real-token"}`, `Bearer ${cart.receiptToken || "rt_not-a-real-token"}`, "Basic dXNlcjpwYXNzd29yZA==", "Bearer"];
}

describe.each(customerRoutes)("customer credential: $name", (route) => {
  it("is 401 without a token, with a malformed, alg:none or other-kind token, and after logout; another merchant's customer gets 403 on merchant-scoped routes and never this customer's data", async () => {
    const cart = await prepareCart(app, route);
    const customer = cart.customer;
    if (!customer) throw new Error("customer routes prepare a signed-in customer");
    const headers = validHeaders(route, cart);
    const { Authorization: _own, ...withoutToken } = headers;
    expectEnvelope(await send(app, route, cart, withoutToken), 401, "UNAUTHORIZED");
    for (const value of invalidBearers(cart)) {
      expectEnvelope(await send(app, route, cart, { ...withoutToken, Authorization: value }), 401, "UNAUTHORIZED");
    }
    const dune = await signIn(app, DUNE.merchantSlug);
    const foreign = await send(app, route, cart, { ...withoutToken, ...bearer(dune.token), ...(route.kind === "customerMutation" ? { "Idempotency-Key": idemKey() } : {}) });
    if (route.merchantScoped) expectEnvelope(foreign, 403, "FORBIDDEN");
    expect(foreign.text).not.toContain(customer.id);
    expect(foreign.text).not.toContain(customer.email);

    const loggedOut = await app.call("DELETE", "/customer/logout", { headers: { ...bearer(customer.token), "Idempotency-Key": idemKey() } });
    expect(loggedOut.status, loggedOut.text).toBe(200);
    expectEnvelope(await send(app, route, cart, { ...withoutToken, ...bearer(customer.token), ...(route.kind === "customerMutation" ? { "Idempotency-Key": idemKey() } : {}) }), 401, "UNAUTHORIZED");
  });
});

describe.each([...cartRoutes, ...receiptRoutes])("customer JWT on cart and receipt route: $name", (route) => {
  it("works with the owner's token; 401 for invalid tokens, 403 for another customer of the merchant and for another merchant's customer", async () => {
    const cart = await prepareCart(app, route, { owner: "customer" });
    const headers = validHeaders(route, cart);
    expect(headers.Authorization).toBe(`Bearer ${cart.bearer ?? ""}`);
    const { Authorization: _own, ...withoutToken } = headers;
    expectEnvelope(await send(app, route, cart, withoutToken), 401, "UNAUTHORIZED");
    for (const value of invalidBearers(cart)) {
      expectEnvelope(await send(app, route, cart, { ...withoutToken, Authorization: value }), 401, "UNAUTHORIZED");
    }
    const neighbour = await signIn(app, HARBOR.merchantSlug);
    expectEnvelope(await send(app, route, cart, { ...withoutToken, ...bearer(neighbour.token) }), 403, "FORBIDDEN");
    const dune = await signIn(app, DUNE.merchantSlug);
    expectEnvelope(await send(app, route, cart, { ...withoutToken, ...bearer(dune.token) }), 403, "FORBIDDEN");
    const owner = await send(app, route, cart, headers);
    expect(owner.status, owner.text).toBe(route.successStatus ?? 200);
  });
});

describe.each(withBody)("body rules: $name", (route) => {
  it("answers malformed JSON, a non-JSON content type, a non-object body and an oversized body with 400", async () => {
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    const path = route.path(cart);
    expectEnvelope(await app.call(route.method, path, { headers: { ...headers, "content-type": "application/json" }, rawBody: "{not json" }), 400, "VALIDATION_ERROR");
    expectEnvelope(await app.call(route.method, path, { headers: { ...headers, "content-type": "text/plain" }, rawBody: "{}" }), 400, "VALIDATION_ERROR");
    expectEnvelope(await app.call(route.method, path, { headers: { ...headers, "content-type": "application/json" }, rawBody: "[1,2]" }), 400, "VALIDATION_ERROR");
    const huge = JSON.stringify({ ...route.body?.(cart), padding: "x".repeat(app.env.MAX_BODY_BYTES) });
    expectEnvelope(await app.call(route.method, path, { headers: { ...headers, "content-type": "application/json" }, rawBody: huge }), 400, "VALIDATION_ERROR");
  });

  it("rejects unknown body properties and wrongly typed fields with 400 naming the field", async () => {
    const cart = await prepareCart(app, route);
    const response = await send(app, route, cart, validHeaders(route, cart), { body: { ...route.body?.(cart), notAField: true } });
    const body = expectEnvelope(response, 400, "VALIDATION_ERROR");
    expect(JSON.stringify(body.details)).toMatch(/notAField|unrecognized/i);
  });
});

describe("unknown paths and methods", () => {
  it("answers 404 NOT_FOUND in the envelope for an unknown path, and 405 with Allow for a known path with another method", async () => {
    expectEnvelope(await app.call("GET", "/no/such/path"), 404, "NOT_FOUND");
    const wrongMethod = await app.call("PUT", `/locations/${HARBOR.locationId}/menus`, { body: {} });
    expectEnvelope(wrongMethod, 405, "METHOD_NOT_ALLOWED");
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("CORS preflight", () => {
  it("answers an allowlisted origin's preflight and refuses others", async () => {
    const allowed = await app.call("OPTIONS", `/locations/${HARBOR.locationId}/menus`, { headers: { Origin: "https://m.example.com", "Access-Control-Request-Method": "POST" } });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://m.example.com");
    expect(allowed.headers.get("access-control-allow-headers")).toMatch(/Idempotency-Key.*If-Match.*X-Cart-Token/s);
    const refused = await app.call("OPTIONS", `/locations/${HARBOR.locationId}/menus`, { headers: { Origin: "https://evil.example.com" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("conditional reads", () => {
  it("serves anonymous reads with an ETag and answers If-None-Match with 304", async () => {
    for (const route of routeCases.filter((candidate) => candidate.kind === "anonymousRead")) {
      const cart = await prepareCart(app, route);
      const first = await send(app, route, cart, {});
      const etag = first.headers.get("etag");
      expect(etag, route.name).toBeTruthy();
      const second = await send(app, route, cart, { "If-None-Match": etag ?? "" });
      expect(second.status, route.name).toBe(304);
      expect(second.text).toBe("");
      // `*` matches any current representation (RFC 9110 §13.1.2); another tag does not.
      expect((await send(app, route, cart, { "If-None-Match": "*" })).status, route.name).toBe(304);
      expect((await send(app, route, cart, { "If-None-Match": '"not-this-one"' })).status, route.name).toBe(200);
    }
  });

  it("answers every credential read's If-None-Match by its declaration: 304 for a body's validator, 200 for a revision", async () => {
    const reads = routeCases.filter((route) => route.method === "GET" && route.kind !== "anonymousRead");
    expect(reads.filter((route) => route.revisionTagged).map((route) => route.name)).toEqual(["GET cart"]);
    for (const route of reads) {
      const cart = await prepareCart(app, route);
      const headers = validHeaders(route, cart);
      const first = await send(app, route, cart, headers);
      expect(first.status, `${route.name}: ${first.text}`).toBe(200);
      const again = await send(app, route, cart, { ...headers, "If-None-Match": first.headers.get("etag") ?? "" });
      expect(again.status, route.name).toBe(route.revisionTagged ? 200 : 304);
      if (route.revisionTagged) expect(again.text, route.name).toBe(first.text);
    }
  });

  it("never answers 304 for a cart: its revision ETag stays while the cart it shows expires", async () => {
    const route = routeCases.find((candidate) => candidate.name === "GET cart");
    if (!route) throw new Error("no GET cart route case");
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    const open = await send(app, route, cart, headers);
    expect(open.body).toMatchObject({ status: "OPEN" });
    const etag = open.headers.get("etag") ?? "";
    const startedAt = app.clock.now;
    try {
      // Idle past CART_IDLE_TTL_MINUTES (24 h): the read shows it EXPIRED, at the same revision.
      app.clock.now = new Date(startedAt.getTime() + 25 * 3_600_000);
      const expired = await send(app, route, cart, { ...headers, "If-None-Match": etag });
      expect(expired.status, expired.text).toBe(200);
      expect(expired.headers.get("etag")).toBe(etag);
      expect(expired.body).toMatchObject({ status: "EXPIRED" });
    } finally {
      app.clock.now = startedAt;
    }
  });
});
