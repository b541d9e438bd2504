import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { customerMessage } from "./customer-message";
import { NETWORK_ERROR } from "./errors";
import { rpc, toStorefrontError, withHeaders } from "./rpc";

type Seen = { url: string; method: string; headers: Headers; body: string | null };

/** Answers every request with `body` and records what the client sent. */
function stubFetch(status: number, body: unknown, headers: Record<string, string> = {}): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
    seen.push({ url, method: init.method ?? "GET", headers: new Headers(init.headers), body: typeof init.body === "string" ? init.body : null });
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } }));
  });
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("typed RPC client", () => {
  it("sends each call's own headers, one request per call, to /api/trpc", async () => {
    const seen = stubFetch(200, { result: { data: { id: "cart_1" } } });
    await rpc.carts.get.query({ locationId: "loc_a", cartId: "cart_1" }, withHeaders({ "X-Cart-Token": "tok_1" }));
    await rpc.carts.expire.mutate({ locationId: "loc_a", cartId: "cart_1" }, withHeaders({ "X-Cart-Token": "tok_2", "If-Match": '"cart-3"', "Idempotency-Key": "sf-0123456789abcdef" }));

    expect(seen).toHaveLength(2);
    const [read, write] = seen;
    expect(read?.method).toBe("GET");
    expect(read?.url).toMatch(/^\/api\/trpc\/carts\.get\?input=/);
    expect(read?.headers.get("x-cart-token")).toBe("tok_1");
    expect(read?.headers.get("if-match")).toBeNull();
    expect(write?.method).toBe("POST");
    expect(write?.url).toBe("/api/trpc/carts.expire");
    expect(JSON.parse(write?.body ?? "null")).toEqual({ locationId: "loc_a", cartId: "cart_1" });
    expect(write?.headers.get("x-cart-token")).toBe("tok_2");
    expect(write?.headers.get("if-match")).toBe('"cart-3"');
    expect(write?.headers.get("idempotency-key")).toBe("sf-0123456789abcdef");
  });

  it("turns the procedure's error into code, message, details, status and request id", async () => {
    stubFetch(
      409,
      { error: { code: -32603, message: "stale", data: { code: "CONFLICT", httpStatus: 409, appError: { code: "CART_CONFLICT", message: "The cart changed", details: { currentRevision: 4 } } } } },
      { "x-request-id": "req_0123456789" },
    );
    const error = await rpc.carts.get.query({ locationId: "loc_a", cartId: "cart_1" }, withHeaders()).then(
      () => undefined,
      (thrown: unknown) => toStorefrontError(thrown),
    );
    expect(error).toMatchObject({ code: "CART_CONFLICT", message: "The cart changed", status: 409, details: { currentRevision: 4 }, requestId: "req_0123456789" });
    expect(error?.isConflict).toBe(true);
    expect(error?.isTransient).toBe(false);
  });

  it("reads the plain error envelope the route answers before tRPC runs (rate limit)", async () => {
    stubFetch(429, { code: "RATE_LIMITED", message: "Too many requests", requestId: "req_0123456789" }, { "x-request-id": "req_0123456789" });
    const error = await rpc.catalog.gratuity.query({ locationId: "loc_a" }, withHeaders()).then(
      () => undefined,
      (thrown: unknown) => toStorefrontError(thrown),
    );
    expect(error).toMatchObject({ code: "RATE_LIMITED", message: "Too many requests", status: 429, requestId: "req_0123456789" });
  });

  it("a platform's error page that is not JSON is a server failure with its status and request id, not a lost connection", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(new Response("An error occurred with your deployment\n\nFUNCTION_INVOCATION_FAILED", { status: 500, headers: { "content-type": "text/plain", "x-request-id": "req_platform" } })),
    );
    const failed = await rpc.catalog.gratuity.query({ locationId: "loc_a" }, withHeaders()).then(
      () => undefined,
      (thrown: unknown) => toStorefrontError(thrown),
    );
    expect(failed).toMatchObject({ status: 500, requestId: "req_platform" });
    expect(failed && customerMessage(failed)).toMatch(/^Something went wrong on our side/);
    // Whether a write ran is unknown: retried with the same key, like a lost answer (a payment report included).
    expect(failed?.isTransient).toBe(true);

    vi.stubGlobal("fetch", () => Promise.resolve(new Response("<html>Gateway Timeout</html>", { status: 504, headers: { "content-type": "text/html" } })));
    const timedOut = await rpc.catalog.gratuity.query({ locationId: "loc_a" }, withHeaders()).then(
      () => undefined,
      (thrown: unknown) => toStorefrontError(thrown),
    );
    expect(timedOut).toMatchObject({ status: 504 });
    expect(timedOut?.isTransient).toBe(true);
    expect(timedOut && customerMessage(timedOut)).toBe("Ordering is briefly unavailable. Please try again in a moment.");
  });

  it("treats no response at all, and gateway failures, as transient", () => {
    const offline = toStorefrontError(TRPCClientError.from(new TypeError("Failed to fetch")));
    expect(offline).toMatchObject({ code: NETWORK_ERROR, status: null });
    expect(offline.isTransient).toBe(true);

    const gateway = toStorefrontError(new TRPCClientError("Unable to transform response", { meta: { response: new Response("<html>", { status: 502 }) } }));
    expect(gateway).toMatchObject({ code: "INTERNAL_ERROR", status: 502 });
    expect(gateway.isTransient).toBe(true);

    const validation = toStorefrontError(
      TRPCClientError.from({ error: { code: -32600, message: "bad", data: { httpStatus: 400, appError: { code: "VALIDATION_ERROR", message: "bad", details: { fields: [{ path: "code", message: "unknown" }] } } } } }),
    );
    expect(validation.fields).toEqual([{ path: "code", message: "unknown" }]);
    expect(validation.isTransient).toBe(false);
  });
});
