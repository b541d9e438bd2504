import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpCourier } from "../../server/integrations/courier/http";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import { createTestApp, HARBOR, mutate, startCart, type CartHandle, type TestApp } from "../harness";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * The DoorDash-Drive-style HTTP courier against a local fake courier (node:http on 127.0.0.1:0):
 * the request it sends, quotes, refusals, a courier that fails or never answers, and accepting.
 */
type Seen = { method: string; url: string; authorization: string | undefined; body: Record<string, unknown> };
type Reply = { status: number; body?: unknown } | "hang";

let server: Server;
let baseUrl: string;
let reply: (seen: Seen) => Reply;
const seen: Seen[] = [];
const hanging: ServerResponse[] = [];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

const quoteReply = (fee: number, tax: number) => (request: Seen): Reply => ({
  status: 200,
  body: {
    external_delivery_id: request.body.external_delivery_id,
    delivery_status: "quote",
    fee,
    tax,
    currency: "USD",
    pickup_time_estimated: "2030-01-07T15:45:00Z",
    dropoff_time_estimated: "2030-01-07T16:02:00Z",
    tracking_url: "https://track.example.com/d/1",
    support_reference: "SR-1",
  },
});

let app: TestApp;
const start = new Date("2030-01-07T15:00:00.000Z");

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const entry: Seen = { method: request.method ?? "", url: request.url ?? "", authorization: request.headers.authorization, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
      seen.push(entry);
      const answer = reply(entry);
      if (answer === "hang") {
        hanging.push(response);
        return;
      }
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await createTestApp({ env: { COURIER_API_URL: baseUrl, COURIER_API_KEY: "test-courier-key", COURIER_TIMEOUT_MS: "300" } });
});

afterAll(async () => {
  await app.close();
  for (const response of hanging) response.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  app.clock.now = start;
  reply = quoteReply(725, 58);
});

type Cart = { deliveryQuote: Record<string, unknown> | null; deliveryInfo: unknown; taxTotal: string; fulfillmentMethodFeeTotal: string; quoteFingerprint: string; catalogRevalidation: CatalogRevalidation | null };

async function deliveryCart(): Promise<CartHandle> {
  const cart = await startCart(app, HARBOR.locationId, "delivery");
  const added = await mutate(app, cart, "POST", "/items", { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" });
  expect(added.status).toBe(200);
  return cart;
}

async function expectUnchanged(cart: CartHandle) {
  const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
  expect(after.headers.get("etag")).toBe(cart.etag);
  expect((after.body as Cart).deliveryQuote).toBeNull();
}

describe("HTTP courier: quotes", () => {
  it("sends a DoorDash-Drive-style quote request and stores the answer", async () => {
    const cart = await deliveryCart();
    const response = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    expect(response.status, response.text).toBe(200);
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: "POST", url: "/drive/v2/quotes", authorization: "Bearer test-courier-key" });
    expect(request?.body).toMatchObject({
      order_value: 2900,
      currency: "USD",
      tip: 0,
      pickup_business_name: "Harbor Kitchen Downtown",
      pickup_phone_number: "+1 617-555-0142",
      dropoff_address: "1 City Hall Square, Boston, MA 02201, United States",
      dropoff_location: { lat: 42.3603, lng: -71.0578 },
      pickup_time: "2030-01-07T15:45:00.000Z",
    });
    expect(String(request?.body.pickup_address)).toMatch(/^200 Atlantic Avenue, Boston/);
    const body = response.body as Cart;
    expect(body.deliveryQuote).toMatchObject({
      provider: "PARTNER_DRIVE",
      externalDeliveryId: request?.body.external_delivery_id,
      feeMinor: 725,
      taxMinor: 58,
      currency: "usd",
      // No expires_at in the answer: DoorDash's documented five minutes.
      expiresAt: "2030-01-07T15:05:00.000Z",
      pickupEstimatedAt: "2030-01-07T15:45:00.000Z",
      dropoffEstimatedAt: "2030-01-07T16:02:00.000Z",
      trackingUrl: "https://track.example.com/d/1",
      supportReference: "SR-1",
    });
    // 6.25% of 29.00 plus the courier's 0.58 tax; 1.99 delivery fee plus the courier's 7.25.
    expect(body).toMatchObject({ taxTotal: "2.39", fulfillmentMethodFeeTotal: "9.24" });
  });

  it("turns the courier's refusal into 400 VALIDATION_ERROR and leaves the cart unchanged", async () => {
    reply = () => ({ status: 400, body: { code: "distance_too_long", message: "Dropoff is too far from pickup", field_errors: [{ field: "dropoff_address", error: "too far" }] } });
    const cart = await deliveryCart();
    const response = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringMatching(/too far/) as unknown,
      details: { reason: "distance_too_long", fieldErrors: [{ field: "dropoff_address", error: "too far" }] },
    });
    await expectUnchanged(cart);
  });

  it("answers 503 DEPENDENCY_UNAVAILABLE within the timeout when the courier never answers", async () => {
    reply = () => "hang";
    const cart = await deliveryCart();
    const started = performance.now();
    const response = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    expect(response.headers.get("retry-after")).toBe("2");
    // COURIER_TIMEOUT_MS is 300 here; generous headroom for a loaded machine, far below a hang.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2_500);
    await expectUnchanged(cart);
  });

  it("answers 503 when the courier fails, answers nonsense, or quotes another currency", async () => {
    const cart = await deliveryCart();
    const failures: ((request: Seen) => Reply)[] = [
      () => ({ status: 500, body: { message: "internal" } }),
      () => ({ status: 401, body: { message: "bad key" } }),
      (request) => ({ status: 200, body: { external_delivery_id: request.body.external_delivery_id, fee: "lots", currency: "USD" } }),
      (request) => ({ status: 200, body: { external_delivery_id: request.body.external_delivery_id, fee: 725, currency: "EUR" } }),
      () => ({ status: 200, body: { external_delivery_id: "someone-else", fee: 725, currency: "USD" } }),
    ];
    for (const failure of failures) {
      reply = failure;
      const response = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
      expect(response.text).not.toMatch(/lots|EUR|bad key|internal/);
    }
    await expectUnchanged(cart);
  });

  it("answers 503 at once when nothing listens at the courier's address", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const offline = await createTestApp({ database: app.deps.database, env: { COURIER_API_URL: `http://127.0.0.1:${port}`, COURIER_API_KEY: "k", COURIER_TIMEOUT_MS: "2000" } });
    offline.clock.now = start;
    const cart = await startCart(offline, HARBOR.locationId, "delivery");
    const response = await mutate(offline, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    await offline.close();
  });

  it("renews through validate-and-update; a new fee is applied and must be accepted", async () => {
    const cart = await deliveryCart();
    const quoted = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    expect(quoted.status).toBe(200);
    app.clock.now = new Date(start.getTime() + 6 * 60_000);
    reply = quoteReply(800, 58);
    const renewed = await mutate(app, cart, "PUT", "/validate-and-update", {});
    expect(renewed.status, renewed.text).toBe(200);
    const body = renewed.body as Cart;
    expect(body.deliveryQuote).toMatchObject({ feeMinor: 800 });
    expect(body.fulfillmentMethodFeeTotal).toBe("9.99");
    expect(body.catalogRevalidation?.changeSet.changes.map((change) => [change.reason, change.path, change.before, change.after])).toEqual([
      ["QUOTE_EXPIRED", "deliveryQuote.externalDeliveryId", (quoted.body as Cart).deliveryQuote?.externalDeliveryId, body.deliveryQuote?.externalDeliveryId],
      ["QUOTE_EXPIRED", "deliveryQuote.fee", "7.25", "8.00"],
    ]);
    expect(body.catalogRevalidation?.required).toBe(true);
    const accepted = await mutate(app, cart, "PUT", "/validate-and-update", { accept: true, quoteFingerprint: body.quoteFingerprint });
    expect(accepted.status, accepted.text).toBe(200);
    expect((accepted.body as Cart).catalogRevalidation?.required).toBe(false);
    // Still current: accepting asked the courier for nothing.
    expect(seen.filter((request) => request.url === "/drive/v2/quotes").at(-1)?.body.external_delivery_id).toBe(body.deliveryQuote?.externalDeliveryId);
  });
});

describe("HTTP courier: accepting a quote", () => {
  const courier = () => createHttpCourier({ baseUrl, apiKey: "test-courier-key", timeoutMs: 300 });

  it("posts the tip to /drive/v2/quotes/{id}/accept", async () => {
    reply = () => ({ status: 200, body: { external_delivery_id: "dlv_1", delivery_status: "created", fee: 725, tip: 350, tracking_url: "https://track.example.com/d/1", support_reference: "SR-1" } });
    const result = await courier().acceptQuote({ externalDeliveryId: "dlv_1", tipMinor: 350 });
    expect(result).toEqual({ ok: true, externalDeliveryId: "dlv_1", status: "created", trackingUrl: "https://track.example.com/d/1", supportReference: "SR-1" });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/drive/v2/quotes/dlv_1/accept", authorization: "Bearer test-courier-key", body: { tip: 350 } });
  });

  it("reports an expired quote as a refusal and a silent courier as unavailable", async () => {
    reply = () => ({ status: 400, body: { code: "quote_expired", message: "The quote has expired" } });
    expect(await courier().acceptQuote({ externalDeliveryId: "dlv_1", tipMinor: 0 })).toEqual({ ok: false, rejection: { reason: "quote_expired", message: "The quote has expired" } });
    reply = () => "hang";
    await expect(courier().acceptQuote({ externalDeliveryId: "dlv_1", tipMinor: 0 })).rejects.toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
  });
});
