import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/bench/[operation]/route";
import { runControlOperation, type ControlRequest } from "../../bench/controls/operations";
import { addItemBody } from "../../bench/scenarios/common";
import { parseEnv } from "../../server/env";
import { createTestApp, HARBOR, idemKey, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const params = (operation: string) => ({ params: Promise.resolve({ operation }) });

function control(operation: string, method: string, query: Record<string, string>, headers: Record<string, string> = {}, body = ""): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  const request: ControlRequest = {
    method,
    operation,
    query: new URLSearchParams(query),
    headers: new Headers(headers),
    bodyText: body,
    clientIp: "203.0.113.10",
    origin: "http://localhost",
  };
  return runControlOperation(app.deps, request).then((result) => ({ ...result, body: JSON.parse(result.body) as unknown }));
}

describe("benchmark controls", () => {
  it("keeps the plain-route control off unless BENCH_CONTROL_ROUTES is set", async () => {
    expect(parseEnv({}).BENCH_CONTROL_ROUTES).toBe(false);
    expect(parseEnv({ BENCH_CONTROL_ROUTES: "true" }).BENCH_CONTROL_ROUTES).toBe(true);
    for (const operation of ["menus", "cart", "ordering-session", "add-item", "floor-menus", "floor-cart", "floor-ordering-session", "floor-add-item"]) {
      const read = await GET(new Request(`http://localhost/api/bench/${operation}?locationId=${HARBOR.locationId}`), params(operation));
      expect(read.status).toBe(404);
      const write = await POST(new Request(`http://localhost/api/bench/${operation}`, { method: "POST", body: "{}" }), params(operation));
      expect(write.status).toBe(404);
    }
  });

  it("answers what the REST facade answers, through the same services", async () => {
    const restMenus = await app.call("GET", `/locations/${HARBOR.locationId}/menus`);
    const controlMenus = await control("menus", "GET", { locationId: HARBOR.locationId });
    expect(controlMenus.status).toBe(200);
    expect(controlMenus.body).toEqual(restMenus.body);

    const session = await control("ordering-session", "POST", { locationId: HARBOR.locationId }, { "idempotency-key": idemKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
    expect(session.status).toBe(201);
    expect(session.headers.etag).toBe('"cart-0"');
    const { cart, cartAccessToken } = session.body as { cart: { id: string }; cartAccessToken: string };
    const ids = { locationId: HARBOR.locationId, cartId: cart.id };

    const added = await control("add-item", "POST", ids, { "x-cart-token": cartAccessToken, "if-match": '"cart-0"', "idempotency-key": idemKey() }, addItemBody(0));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.headers.etag).toBe('"cart-1"');

    const stale = await control("add-item", "POST", ids, { "x-cart-token": cartAccessToken, "if-match": '"cart-0"', "idempotency-key": idemKey() }, addItemBody(1));
    expect(stale.status).toBe(409);

    const restCart = await app.call("GET", `/locations/${HARBOR.locationId}/carts/${cart.id}`, { headers: { "X-Cart-Token": cartAccessToken } });
    const controlCart = await control("cart", "GET", ids, { "x-cart-token": cartAccessToken });
    expect(controlCart.status).toBe(200);
    expect(controlCart.body).toEqual(restCart.body);
    expect(controlCart.body).toEqual(added.body);

    const anonymous = await control("cart", "GET", ids);
    expect(anonymous.status).toBe(401);
  });
});
