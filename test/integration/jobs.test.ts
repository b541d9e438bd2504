import { advanceClock, cartRowOf } from "../checkout-helpers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awayFromWindowEdge } from "../rate-limit-window";
import { idempotencyLeases, idempotencyRecords, orders, paymentSessions } from "../../db/schema";
import { KEY_LEASE_MS } from "../../server/services/idempotency";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import type { PaymentIntentLedger } from "../../server/integrations/payments/ledger";
import { PEER_ADDRESS_HEADER } from "../../server/http/client-ip";
import { ALL_JOBS_ORDER } from "../../server/jobs/run";
import { jobNames, type JobName, type JobReport } from "../../server/jobs/types";
import { orderCount, paymentSession, pricedCart } from "../checkout-helpers";
import { createTestApp, HARBOR, mutate, startCart, type TestApp } from "../harness";
import { processorForTarget, type ProcessorUnderTest } from "../processor-target";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * Background jobs through their route (GET/POST /api/jobs/{name}, in-process or on the production
 * build): the authentication, and each job's effect, idempotence and batching. Payments left in
 * flight by a crash or an outage: jobs-crash.test.ts (in-process only).
 */
const CRON_SECRET = "test-cron-secret-0123456789abcdef";

let processor: ProcessorUnderTest;
let ledger: PaymentIntentLedger;
let app: TestApp;
beforeAll(async () => {
  processor = await processorForTarget("whsec_jobs_test");
  app = await createTestApp({ env: { CRON_SECRET, ...processor.env } });
  ledger = processor.ledgerOf(app);
});
afterAll(async () => {
  await app.close();
  await processor.close();
});

const minutes = (n: number) => n * 60_000;
const advance = (ms: number) => advanceClock(app, ms);
const cartRow = (cartId: string) => cartRowOf(app, cartId);

/** Runs one job as Vercel Cron does, through the route, and answers its report. */
async function job(name: JobName, target: TestApp = app): Promise<JobReport> {
  const response = await callRoute(target, name, { Authorization: `Bearer ${CRON_SECRET}` }, "POST");
  if (response.status !== 200) throw new Error(`job ${name}: ${response.status} ${JSON.stringify(response.body)}`);
  const [report] = response.body.jobs as JobReport[];
  if (!report) throw new Error(`job ${name}: no report`);
  return report;
}

async function callRoute(target: TestApp, name: string, headers: Record<string, string> = {}, method = "GET") {
  const response = await target.fetch(new Request(`http://localhost/api/jobs/${name}`, { method, headers: { [PEER_ADDRESS_HEADER]: "198.51.100.20", ...headers } }));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/jobs/{name}", () => {
  it("runs a job for Vercel Cron's exact bearer credential and answers the counts", async () => {
    const response = await callRoute(app, "expire-carts", { Authorization: `Bearer ${CRON_SECRET}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.body).toMatchObject({ complete: true, jobs: [{ job: "expire-carts", complete: true, details: { expired: expect.any(Number) as number } }] });
    expect(response.body.requestId).toBe(response.headers.get("x-request-id"));
  });

  it("`all` runs every job in one budget (POST works too, for manual runs)", async () => {
    const response = await callRoute(app, "all", { Authorization: `Bearer ${CRON_SECRET}` }, "POST");
    expect(response.status).toBe(200);
    const ran = (response.body.jobs as JobReport[]).map((report) => report.job);
    expect(ran).toEqual(ALL_JOBS_ORDER);
    expect([...ran].sort()).toEqual([...jobNames].sort());
    expect(ran[0]).toBe("reconcile-payments");
  });

  it("refuses anything but the exact credential with 401 and the error envelope", async () => {
    for (const authorization of [undefined, "", CRON_SECRET, `bearer ${CRON_SECRET}`, `Bearer ${CRON_SECRET.slice(0, -1)}x`, `Bearer ${CRON_SECRET}${CRON_SECRET}`, "Basic dXNlcjpwYXNz"]) {
      const response = await callRoute(app, "expire-carts", authorization === undefined ? {} : { Authorization: authorization });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(Object.keys(response.body).sort()).toEqual(["code", "message", "requestId"]);
      expect(response.body.code).toBe("UNAUTHORIZED");
    }
  });

  it("answers 404 for an unknown job, and for every job when CRON_SECRET is unset", async () => {
    expect((await callRoute(app, "drop-tables", { Authorization: `Bearer ${CRON_SECRET}` })).status).toBe(404);
    const unconfigured = await createTestApp({ database: app.deps.database });
    try {
      const response = await callRoute(unconfigured, "expire-carts", { Authorization: "Bearer " });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("NOT_FOUND");
    } finally {
      await unconfigured.close();
    }
  });

  it("failed attempts count against the caller's rate limit: guessing ends in 429", async () => {
    const limited = await createTestApp({ database: app.deps.database, env: { CRON_SECRET, RATE_LIMIT_MAX: "2" } });
    try {
      await awayFromWindowEdge(limited.deps.env.RATE_LIMIT_WINDOW_SECONDS);
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await callRoute(limited, "expire-carts", { Authorization: `Bearer guess-${i}` })).status);
      expect(statuses).toEqual([401, 401, 429]);
      // The right credential is not rate limited (a cron is not a client).
      expect((await callRoute(limited, "expire-carts", { Authorization: `Bearer ${CRON_SECRET}` })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("expire-carts", () => {
  it("moves OPEN carts past their idle expiry to EXPIRED with a new revision, once", async () => {
    const idle = await startCart(app);
    advance(minutes(app.env.CART_IDLE_TTL_MINUTES - 10));
    const fresh = await startCart(app);
    advance(minutes(11));
    const before = await cartRow(idle.cartId);

    const first = await job("expire-carts");
    expect(first.complete).toBe(true);
    expect(first.details.expired).toBeGreaterThanOrEqual(1);
    const expired = await cartRow(idle.cartId);
    expect(expired).toMatchObject({ status: "EXPIRED", revision: before.revision + 1, expiresAt: before.expiresAt });
    expect((await cartRow(fresh.cartId)).status).toBe("OPEN");

    const again = await job("expire-carts");
    expect(again.processed).toBe(0);
    expect((await cartRow(idle.cartId)).revision).toBe(before.revision + 1);

    // The client holding the old ETag learns the cart is gone.
    const late = await mutate(app, idle, "PUT", "/gratuity", { rate: "0.15" });
    expect((late.body as { code: string }).code).toBe("CART_IMMUTABLE");
  });

  it("works through the backlog in batches of JOB_BATCH_SIZE", async () => {
    const small = await createTestApp({ env: { CRON_SECRET, JOB_BATCH_SIZE: "2" } });
    try {
      small.clock.now = app.clock.now;
      for (let i = 0; i < 5; i += 1) await startCart(small);
      small.clock.now = new Date(small.clock.now.getTime() + minutes(small.env.CART_IDLE_TTL_MINUTES + 1));
      const report = await job("expire-carts", small);
      expect(report).toMatchObject({ processed: 5, batches: 3, complete: true, details: { expired: 5 } });
      expect((await job("expire-carts", small)).processed).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe("prune-idempotency", () => {
  it("deletes stored outcomes past their retention, and only those", async () => {
    const createdAt = app.clock.now;
    await startCart(app);
    const stored = await app.deps.database.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.createdAt, createdAt));
    expect(stored).toHaveLength(1);
    advance(app.env.IDEMPOTENCY_RETENTION_HOURS * 3_600_000 + 1000);
    await startCart(app);

    const first = await job("prune-idempotency");
    expect(first.details.deleted).toBeGreaterThanOrEqual(1);
    const left = await app.deps.database.db.select().from(idempotencyRecords);
    expect(left.some((record) => record.key === stored[0]?.key)).toBe(false);
    expect(left.length).toBeGreaterThanOrEqual(1);
    expect(left.every((record) => record.expiresAt > app.clock.now)).toBe(true);
    expect((await job("prune-idempotency")).processed).toBe(0);
  });

  it("deletes key leases past their expiry (a payment's lease is left to expire after it succeeded)", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const leased = await app.deps.database.db.select().from(idempotencyLeases);
    expect(leased.length).toBeGreaterThanOrEqual(1);
    expect((await job("prune-idempotency")).details.leasesDeleted).toBe(0);
    advance(KEY_LEASE_MS + 1000);
    const pruned = await job("prune-idempotency");
    expect(pruned.details.leasesDeleted).toBe(leased.length);
    expect(await app.deps.database.db.select().from(idempotencyLeases)).toHaveLength(0);
  });
});

describe("reconcile-payments", () => {
  it("turns a browser-confirmed payment whose report and webhook never came into the order", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const unpaid = await pricedCart(app);
    await paymentSession(app, unpaid);
    const [session] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cart.cartId));
    if (!session?.intentId) throw new Error("no intent");
    ledger.confirm(session.intentId, "pm_card_visa", undefined);

    advance(app.env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000 + 1000);
    const report = await job("reconcile-payments");
    expect(report.details.completed).toBe(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    // The customer who never paid keeps an OPEN cart; nothing was charged.
    expect((await cartRow(unpaid.cartId)).status).toBe("OPEN");
    expect(await orderCount(app, unpaid.cartId)).toBe(0);
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    expect(order?.amountChargedMinor).toBe(cart.total);
  });

  it("cancels the open intents of carts that expired with them, an unsettled authorization's hold included, then leaves those carts alone", async () => {
    const confirmed = await pricedCart(app);
    await paymentSession(app, confirmed);
    const abandoned = await pricedCart(app);
    await paymentSession(app, abandoned);
    const intentOf = async (cartId: string) => (await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cartId)))[0]?.intentId ?? null;
    const held = await intentOf(confirmed.cartId);
    const unused = await intentOf(abandoned.cartId);
    if (!held || !unused) throw new Error("no intent");
    // Confirmed in the browser; neither the report nor the webhook ever comes, and the cart expires.
    expect(ledger.confirm(held, "pm_card_visa", undefined).status).toBe("requires_capture");
    advance(app.env.CART_IDLE_TTL_MINUTES * 60_000 + 1000);

    const report = await job("reconcile-payments");
    expect(report.complete).toBe(true);
    expect(ledger.retrieve(held).status).toBe("canceled");
    expect(ledger.retrieve(unused).status).toBe("canceled");
    expect(await intentOf(confirmed.cartId)).toBeNull();
    expect(await intentOf(abandoned.cartId)).toBeNull();
    expect(await orderCount(app, confirmed.cartId)).toBe(0);
    expect(ledger.charges.filter((charge) => charge.intentId === held)).toHaveLength(0);
    const again = await job("reconcile-payments");
    expect(again.details).toMatchObject({ completed: 0, released: 0, unchanged: 0, errors: 0 });
  });

});

describe("release-quotes", () => {
  const calamari = { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" };

  it("marks an expired courier quote and flags the renewal with a new revision; validate-and-update renews it", async () => {
    app.clock.now = new Date("2030-01-07T15:00:00.000Z");
    const cart = await startCart(app, HARBOR.locationId, "delivery");
    expect((await mutate(app, cart, "POST", "/items", calamari)).status).toBe(200);
    expect((await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor)).status).toBe(200);
    const current = await startCart(app, HARBOR.locationId, "delivery");
    expect((await mutate(app, current, "POST", "/items", calamari)).status).toBe(200);

    expect((await job("release-quotes")).processed).toBe(0);
    advance(minutes(6));
    expect((await mutate(app, current, "PUT", "/set-delivery", deliveryAddressNearHarbor)).status).toBe(200);
    const before = await cartRow(cart.cartId);
    const currentBefore = await cartRow(current.cartId);

    const report = await job("release-quotes");
    expect(report).toMatchObject({ processed: 1, complete: true, details: { released: 1, skipped: 0 } });
    const after = await cartRow(cart.cartId);
    expect(after.revision).toBe(before.revision + 1);
    expect(after.deliveryQuote).toEqual({ ...before.deliveryQuote, status: "expired" });
    expect(after.expiresAt).toEqual(before.expiresAt);
    expect(after.priced.orderTotal).toBe(before.priced.orderTotal);
    const revalidation = after.catalogRevalidation as CatalogRevalidation;
    expect(revalidation.reasonCodes).toContain("QUOTE_EXPIRED");
    expect(await cartRow(current.cartId)).toEqual(currentBefore);

    expect((await job("release-quotes")).processed).toBe(0);

    // The client's old ETag is stale; with the current one, validate-and-update fetches a new quote.
    expect((await mutate(app, cart, "PUT", "/validate-and-update", {})).status).toBe(409);
    cart.etag = `"cart-${after.revision}"`;
    const renewed = await mutate(app, cart, "PUT", "/validate-and-update", {});
    expect(renewed.status, renewed.text).toBe(200);
    expect((renewed.body as { deliveryQuote: { status: string; expiresAt: string } }).deliveryQuote).toMatchObject({ status: "quoted", expiresAt: new Date(app.clock.now.getTime() + minutes(5)).toISOString() });
  });
});
