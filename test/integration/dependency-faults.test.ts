import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, cartUrl, orderCount, pay, paymentSession, pricedCart, readCart, type ResultBody, type SessionBody } from "../checkout-helpers";
import { elapsedSince } from "../db-fault-helpers";
import { createTestApp, HARBOR, idemKey, openTestDatabase, startCart, mutate, type TestApp } from "../harness";
import { deliveryAddressNearHarbor } from "../routes";
import { confirmInBrowser, FAKE_STRIPE_KEY, intentIdOf, startFakeStripe, type FakeStripe } from "../stripe-fake";
import type { DatabaseHandle } from "../../db/client";

/**
 * Stripe and the courier slow or failing under the routes that call them: each call is bounded by
 * its timeout (503 DEPENDENCY_UNAVAILABLE with Retry-After, nothing half-done), and a later retry,
 * even when the slow call did take effect at the provider after we gave up, ends in exactly one
 * effect. (Signature, tolerance, duplicate and out-of-order webhooks are in checkout-stripe.test.ts;
 * the SDK's own retry and timeout at the processor level in payment-processor.test.ts.)
 */
/**
 * Long enough that a healthy call never meets them on a loaded CI machine (whose workers can stall for
 * some hundreds of ms), short enough to keep the file quick; SLOW_MS is well past both.
 */
const STRIPE_TIMEOUT_MS = 1_000;
const COURIER_TIMEOUT_MS = 1_000;
const SLOW_MS = 2_500;
const MARGIN_MS = 2_000;
const WEBHOOK_SECRET = "whsec_dependency_faults";

let database: DatabaseHandle;
let fake: FakeStripe;
/** Stripe with the SDK's retries off: a slow call is the route's to handle. */
let app: TestApp;
/** Stripe with the SDK retrying (as deployed by default). */
let retrying: TestApp;

type CourierMode = "quote" | "hang" | "fail";
let courierMode: CourierMode = "quote";
let courier: Server;
const hanging: ServerResponse[] = [];
let courierApp: TestApp;

function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {}));
    request.on("error", reject);
  });
}

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await startFakeStripe();
  const stripe = { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, STRIPE_TIMEOUT_MS: String(STRIPE_TIMEOUT_MS) };
  app = await createTestApp({ database, env: { ...stripe, STRIPE_MAX_NETWORK_RETRIES: "0" } });
  retrying = await createTestApp({ database, env: { ...stripe, STRIPE_MAX_NETWORK_RETRIES: "2" } });

  courier = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (courierMode === "hang") return void hanging.push(response);
      response.writeHead(courierMode === "fail" ? 502 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify(courierMode === "fail" ? { message: "bad gateway" } : { external_delivery_id: body.external_delivery_id, fee: 725, tax: 58, currency: "USD" }));
    });
  });
  await new Promise<void>((resolve) => courier.listen(0, "127.0.0.1", resolve));
  const courierUrl = `http://127.0.0.1:${(courier.address() as AddressInfo).port}`;
  courierApp = await createTestApp({ database, env: { COURIER_API_URL: courierUrl, COURIER_API_KEY: "test-courier-key", COURIER_TIMEOUT_MS: String(COURIER_TIMEOUT_MS) } });
});

afterAll(async () => {
  await app?.close();
  await retrying?.close();
  await courierApp?.close();
  for (const response of hanging) response.destroy();
  courier?.closeAllConnections();
  await new Promise<void>((resolve) => (courier ? courier.close(() => resolve()) : resolve()));
  await fake?.close();
  await database?.close();
});

const intentsOfCart = (cartId: string) => fake.ledger.allIntents().filter((intent) => intent.metadata.cartId === cartId);
const chargesOf = (intentId: string) => fake.ledger.charges.filter((charge) => charge.intentId === intentId);
const createsFor = (cartId: string) =>
  fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/payment_intents" && (request.body.metadata as Record<string, string> | undefined)?.cartId === cartId);

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectUnavailable(response: { status: number; body: unknown; headers: Headers; text: string }) {
  expect(response.status, response.text).toBe(503);
  expect(response.body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("Stripe slow or failing", () => {
  it("a PaymentIntent create slower than STRIPE_TIMEOUT_MS: 503 at the timeout; Stripe creates it late; the retry gets that same intent", async () => {
    const cart = await pricedCart(app);
    const revision = (await readCart(app, cart)).revision;
    fake.inject({ method: "POST", path: /^\/v1\/payment_intents$/, kind: "delay", delayMs: SLOW_MS });
    const key = idemKey();
    const started = performance.now();
    const slow = await paymentSession(app, cart, key);
    expectUnavailable(slow);
    expect(elapsedSince(started)).toBeLessThan(STRIPE_TIMEOUT_MS + MARGIN_MS);
    expect((await readCart(app, cart)).revision).toBe(revision);

    // The answer was lost, not the work: Stripe holds an intent for this cart.
    await until(() => intentsOfCart(cart.cartId).length === 1);
    const retried = await paymentSession(app, cart, key);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(intentIdOf((retried.body as SessionBody).clientSecret)).toBe(intentsOfCart(cart.cartId)[0]?.id);
    expect(intentsOfCart(cart.cartId)).toHaveLength(1);
    expect(new Set(createsFor(cart.cartId).map((request) => request.idempotencyKey)).size).toBe(1);
  });

  it("Stripe answering 500 once: the SDK retries with the same key within the request; one intent", async () => {
    const cart = await pricedCart(retrying);
    fake.inject({ method: "POST", path: /^\/v1\/payment_intents$/, kind: "status", status: 500 });
    const session = await paymentSession(retrying, cart);
    expect(session.status, session.text).toBe(200);
    const creates = createsFor(cart.cartId);
    expect(creates).toHaveLength(2);
    expect(new Set(creates.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(intentsOfCart(cart.cartId)).toHaveLength(1);
  });

  it("a capture slower than STRIPE_TIMEOUT_MS: 503 with the cart still locked; a retry at once, racing the late capture, charges once and places one order", async () => {
    const cart = await pricedCart(app);
    const session = await paymentSession(app, cart);
    expect(session.status, session.text).toBe(200);
    const intentId = intentIdOf((session.body as SessionBody).clientSecret);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");

    fake.inject({ method: "POST", path: /^\/v1\/payment_intents\/[^/]+\/capture$/, kind: "delay", delayMs: SLOW_MS });
    const key = idemKey();
    const started = performance.now();
    const slow = await pay(app, cart, undefined, { key });
    expectUnavailable(slow);
    expect(elapsedSince(started)).toBeLessThan(STRIPE_TIMEOUT_MS * 3 + MARGIN_MS);
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    expect(await orderCount(app, cart.cartId)).toBe(0);

    // Retried while Stripe is still working on the first capture, a moment later: a capture key of its
    // own. Whichever capture Stripe takes first charges; the other is refused. One charge.
    advanceClock(app, 1);
    const retried = await pay(app, cart, undefined, { key });
    expect(retried.status, retried.text).toBe(200);
    expect((retried.body as ResultBody).status).toMatch(/^(order_pending|completed)$/);
    await until(() => fake.requests.filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`).length >= 2 && chargesOf(intentId).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    expect(chargesOf(intentId)).toEqual([{ intentId, amount: cart.total, currency: "usd" }]);
    const captureKeys = fake.requests.filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`).map((request) => request.idempotencyKey);
    expect(captureKeys).toHaveLength(2);
    expect(new Set(captureKeys).size).toBe(2);
    expect(await orderCount(app, cart.cartId)).toBe(1);

    const replayed = await pay(app, cart, undefined, { key });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(retried.body);
    expect(chargesOf(intentId)).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
  });
});

describe("courier slow or failing", () => {
  async function deliveryCart() {
    const cart = await startCart(courierApp, HARBOR.locationId, "delivery");
    const added = await mutate(courierApp, cart, "POST", "/items", { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" });
    expect(added.status, added.text).toBe(200);
    return cart;
  }

  const setDelivery = (cart: Awaited<ReturnType<typeof deliveryCart>>, key: string) =>
    courierApp.call("PUT", `${cartUrl(cart)}/set-delivery`, {
      headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key },
      body: deliveryAddressNearHarbor,
    });

  it("a courier that hangs, then fails, then answers: 503 within the timeout each time, then the same key applies the quote exactly once", async () => {
    const cart = await deliveryCart();
    const revision = (await readCart(courierApp, cart)).revision;
    const key = idemKey();
    for (const mode of ["hang", "fail"] as const) {
      courierMode = mode;
      const started = performance.now();
      expectUnavailable(await setDelivery(cart, key));
      expect(elapsedSince(started)).toBeLessThan(COURIER_TIMEOUT_MS + MARGIN_MS);
      expect((await readCart(courierApp, cart)).revision).toBe(revision);
    }

    courierMode = "quote";
    const applied = await setDelivery(cart, key);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.headers.get("idempotent-replayed")).toBeNull();
    expect(applied.body).toMatchObject({ revision: revision + 1, deliveryQuote: { feeMinor: 725 } });
    const replayed = await setDelivery(cart, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(applied.body);
    expect((await readCart(courierApp, cart)).revision).toBe(revision + 1);
  });
});
