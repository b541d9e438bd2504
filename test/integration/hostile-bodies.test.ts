import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../server/http/json-body";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * Bodies an attacker sends to every JSON endpoint, REST and typed RPC alike: nested thousands deep,
 * larger than the limit, or labelled with a charset other than UTF-8. Each is a 400 in the error
 * envelope, read no further than the limit, and changes nothing.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const deepArray = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

type Envelope = { code: string; requestId: string; details?: { fields?: { path: string }[] } };

async function expectEnvelope(response: Response, field?: string): Promise<Envelope> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as Envelope;
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.requestId).toBe(response.headers.get("x-request-id"));
  if (field) expect(body.details?.fields?.map((issue) => issue.path)).toContain(field);
  return body;
}

const rpc = (path: string, init: RequestInit) => app.fetch(new Request(`http://localhost/api/trpc/${path}`, init));

describe("JSON nested past the depth limit", () => {
  it("is a 400 on REST, for objects and arrays, 3,000 levels deep, and the cart is unchanged", async () => {
    const cart = await startCart(app);
    for (const rawBody of [deep(3000), `{"productId":"x","selections":${deepArray(3000)}}`, deep(MAX_JSON_DEPTH + 1)]) {
      const response = await app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, {
        headers: { "content-type": "application/json", "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
        rawBody,
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fields: [{ path: "body" }] } });
    }
    const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(read.headers.get("etag")).toBe(cart.etag);
  });

  it("is a 400 on typed RPC, in a mutation's body and in a query's input", async () => {
    await expectEnvelope(await rpc("customer.login", { method: "POST", headers: { "content-type": "application/json", "Idempotency-Key": idemKey() }, body: deep(3000) }), "body");
    // 1,000 levels: 3,000 encoded would pass 16 KiB of request line, which the server refuses first (431).
    await expectEnvelope(await rpc(`catalog.menus?input=${encodeURIComponent(deepArray(1000))}`, { method: "GET" }), "query.input");
  });

  it("still lets a body at the limit through to validation", async () => {
    const cart = await startCart(app);
    // Strings holding brackets do not count as nesting.
    const added = await mutate(app, cart, "POST", "/items", { productId: "[[[[{{{{".repeat(8), quantity: 1, selections: [], itemUnavailableAction: "remove_item" });
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({ details: { fields: [{ path: "productId" }] } });
  });
});

describe("a body larger than MAX_BODY_BYTES on typed RPC", () => {
  it("is refused by its declared length before the body is read", async () => {
    const body = JSON.stringify({ merchantSlug: HARBOR.merchantSlug, identifierString: "x".repeat(app.env.MAX_BODY_BYTES) });
    await expectEnvelope(await rpc("customer.login", { method: "POST", headers: { "content-type": "application/json", "Idempotency-Key": idemKey() }, body }), "body");
  });

  it("is refused when streamed without a length, after reading no more than the limit", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 50 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await rpc("customer.login", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    await expectEnvelope(response, "body");
    // Only the in-process handler shows how much it pulled; over HTTP the server's socket decides.
    if (app.target === "in-process") expect(sent).toBeLessThanOrEqual(app.env.MAX_BODY_BYTES + 2 * chunk.byteLength);
  });
});

describe("a body labelled with a charset other than UTF-8", () => {
  it("is a 400 naming the content type, on REST and on RPC", async () => {
    const cart = await startCart(app);
    for (const contentType of ["application/json; charset=utf-16", "application/json;charset=\"UTF-16LE\"", "application/json; charset=latin1"]) {
      const response = await app.call("PUT", `/locations/${cart.locationId}/carts/${cart.cartId}/gratuity`, {
        headers: { "content-type": contentType, "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
        rawBody: JSON.stringify({ rate: "0.1" }),
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({ details: { fields: [{ path: "header.content-type" }] } });
    }
    await expectEnvelope(await rpc("customer.login", { method: "POST", headers: { "content-type": "application/json; charset=utf-16", "Idempotency-Key": idemKey() }, body: "{}" }), "header.content-type");
    const accepted = await app.call("PUT", `/locations/${cart.locationId}/carts/${cart.cartId}/gratuity`, {
      headers: { "content-type": "application/json; charset=UTF-8", "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      rawBody: JSON.stringify({ rate: "0.1" }),
    });
    expect(accepted.status, accepted.text).toBe(200);
  });
});

describe("a body with a Content-Encoding", () => {
  it("is a 400 naming the header on REST and on RPC (bodies are not decoded), and nothing changes", async () => {
    const cart = await startCart(app);
    for (const coding of ["gzip", "br", "identity, gzip"]) {
      const response = await app.call("PUT", `/locations/${cart.locationId}/carts/${cart.cartId}/gratuity`, {
        headers: { "content-type": "application/json", "content-encoding": coding, "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
        rawBody: JSON.stringify({ rate: "0.1" }),
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({ details: { fields: [{ path: "header.content-encoding" }] } });
    }
    await expectEnvelope(await rpc("customer.login", { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip", "Idempotency-Key": idemKey() }, body: "{}" }), "header.content-encoding");
    const identity = await app.call("PUT", `/locations/${cart.locationId}/carts/${cart.cartId}/gratuity`, {
      headers: { "content-type": "application/json", "content-encoding": "identity", "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      rawBody: JSON.stringify({ rate: "0.1" }),
    });
    expect(identity.status, identity.text).toBe(200);
    expect(identity.body).toMatchObject({ revision: 1 });
  });
});
