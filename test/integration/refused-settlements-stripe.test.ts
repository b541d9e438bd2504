import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { paymentAttempts } from "../../db/schema";
import type { PaymentProcessor } from "../../server/integrations/payments/types";
import { runJob } from "../../server/jobs/run";
import { advanceClock, attemptsOf, orderCount, orderResult, pay, pricedCart, readCart, type ResultBody } from "../checkout-helpers";
import { createTestApp, type TestApp } from "../harness";
import { chargesOf, sessionIntentId } from "../stripe-app";
import { confirmInBrowser, FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * Stripe refusing a capture or a cancellation, and the card authorised while the service tries to
 * cancel: the payment is never parked with money held that the service could still settle, never
 * charged without its order, never answered as an internal error, and what cannot be settled is named.
 * The processor is wrapped so that a case can act at an exact point: before the n-th cancellation of
 * one intent reaches Stripe, or before a capture does.
 */
let fake: FakeStripe;
let app: TestApp;
type Hook = () => void | Promise<void>;
const hooks: {
  intentId?: string;
  cancels: number;
  beforeCancel: Map<number, Hook>;
  beforeCapture: (() => Promise<void>) | undefined;
  retrieves: number;
  beforeRetrieve: Map<number, Hook>;
  captured: number;
  afterCapture: Map<number, Hook>;
} = { cancels: 0, beforeCancel: new Map(), beforeCapture: undefined, retrieves: 0, beforeRetrieve: new Map(), captured: 0, afterCapture: new Map() };

function withHooks(inner: PaymentProcessor): PaymentProcessor {
  return {
    ...inner,
    retrieveIntent: async (intentId) => {
      if (intentId === hooks.intentId) {
        hooks.retrieves += 1;
        await hooks.beforeRetrieve.get(hooks.retrieves)?.();
      }
      return inner.retrieveIntent(intentId);
    },
    captureIntent: async (request) => {
      const before = hooks.beforeCapture;
      hooks.beforeCapture = undefined;
      await before?.();
      const answer = await inner.captureIntent(request);
      if (request.intentId === hooks.intentId) {
        hooks.captured += 1;
        await hooks.afterCapture.get(hooks.captured)?.();
      }
      return answer;
    },
    cancelIntent: async (request) => {
      if (request.intentId === hooks.intentId) {
        hooks.cancels += 1;
        await hooks.beforeCancel.get(hooks.cancels)?.();
      }
      return inner.cancelIntent(request);
    },
  };
}

function hookCancels(intentId: string, before: [number, Hook][]) {
  hookIntent(intentId, { beforeCancel: before });
}

/** Hooks on one intent's calls, counted from now: before the n-th cancellation or retrieval, after the n-th capture that succeeded. */
function hookIntent(intentId: string, { beforeCancel = [], beforeRetrieve = [], afterCapture = [] }: { beforeCancel?: [number, Hook][]; beforeRetrieve?: [number, Hook][]; afterCapture?: [number, Hook][] }) {
  Object.assign(hooks, {
    intentId,
    cancels: 0,
    beforeCancel: new Map(beforeCancel),
    retrieves: 0,
    beforeRetrieve: new Map(beforeRetrieve),
    captured: 0,
    afterCapture: new Map(afterCapture),
  });
}

beforeAll(async () => {
  fake = await startFakeStripe();
  app = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: "whsec_refused_settlements", STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0" },
    overrides: (deps) => ({ payments: withHooks(deps.payments) }),
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const unexpectedState = { type: "invalid_request_error", code: "payment_intent_unexpected_state" };
const refuse = (intentId: string, action: "cancel" | "capture", times = 1) => {
  for (let n = 0; n < times; n += 1) fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/${action}$`), kind: "status", status: 400, error: unexpectedState });
};
/** The confirmation Stripe was still running lands: the card is authorised. */
const authorise = (intentId: string) => () => {
  fake.ledger.confirm(intentId, "pm_card_visa", undefined);
};

/** A kept 500 on the server's confirmation, then a refused cancellation: the payment pending, the cart LOCKED, the job due. */
async function pendingAfterKeptConfirmation() {
  const cart = await pricedCart(app);
  const intentId = await sessionIntentId(app, cart);
  fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/confirm$`), kind: "status", status: 500, kept: "before" });
  refuse(intentId, "cancel");
  const first = await pay(app, cart, "pm_card_visa");
  expect(first.body, first.text).toMatchObject({ status: "payment_pending" });
  expect((await readCart(app, cart)).status).toBe("LOCKED");
  advanceClock(app, 120_000);
  return { cart, intentId };
}

/**
 * Runs the job while a poll's capture is held, lets the capture go 300 ms in (the job's own, if it gets that
 * far first, waits behind the cart's lock or is refused by Stripe), and checks that one charge made one order.
 */
async function jobBesideHeldPoll(cart: Awaited<ReturnType<typeof pricedCart>>, intentId: string, letCaptureGo: () => void, poll: () => ReturnType<typeof orderResult> | undefined) {
  const job = runJob(app.deps, "reconcile-payments");
  setTimeout(letCaptureGo, 300);
  const report = await job;
  const polled = await poll();
  expect(polled?.status, polled?.text).toBe(200);
  expect(report.attention).toEqual([]);
  expect(chargesOf(fake, intentId)).toHaveLength(1);
  expect(await orderCount(app, cart.cartId)).toBe(1);
  expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["succeeded"]);
  expect(((await orderResult(app, cart)).body as ResultBody).status).toMatch(/^(order_pending|completed)$/);
}

describe("a cancellation refused because the card was authorised meanwhile", () => {
  it("met by the job's settlement: carried on to the order", async () => {
    const { cart, intentId } = await pendingAfterKeptConfirmation();
    hookCancels(intentId, [[1, authorise(intentId)]]);
    refuse(intentId, "cancel");
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([]);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
  });

  it("met by the job's last cancellation before parking: carried on to the order, not parked with the card held", async () => {
    const { cart, intentId } = await pendingAfterKeptConfirmation();
    // The settlement's cancellation is refused with the intent still open; the one releaseOrPark sends
    // is refused because the held confirmation authorised the card just before it.
    hookCancels(intentId, [[2, authorise(intentId)]]);
    refuse(intentId, "cancel", 2);
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([]);
    expect(report.details).toMatchObject({ completed: 1, parked: 0 });
    expect(fake.ledger.retrieve(intentId).status).toBe("succeeded");
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect(chargesOf(fake, intentId)).toHaveLength(1);
    expect(((await orderResult(app, cart)).body as ResultBody).status).toMatch(/^(order_pending|completed)$/);
  });

  it("while a poll captures: the order is placed once, with one charge", async () => {
    const { cart, intentId } = await pendingAfterKeptConfirmation();
    let atCapture!: () => void;
    const pollAtCapture = new Promise<void>((resolve) => (atCapture = resolve));
    let openCapture!: () => void;
    const captureGate = new Promise<void>((resolve) => (openCapture = resolve));
    let poll: ReturnType<typeof orderResult> | undefined;
    hookCancels(intentId, [
      [
        2,
        async () => {
          // releaseOrPark's cancellation is on its way: the held confirmation lands, and the customer's
          // poll reads the authorisation and goes to capture it, held there until the job has decided.
          authorise(intentId)();
          hooks.beforeCapture = async () => {
            atCapture();
            await captureGate;
          };
          poll = orderResult(app, cart);
          await pollAtCapture;
        },
      ],
    ]);
    refuse(intentId, "cancel", 2);
    await jobBesideHeldPoll(cart, intentId, openCapture, () => poll);
  });
});

describe("a capture that lands after its payment was parked", () => {
  it("places the order the customer paid for on the next poll", async () => {
    const { cart, intentId } = await pendingAfterKeptConfirmation();
    // Every cancellation refused with the intent open: the job parks the payment.
    refuse(intentId, "cancel", 4);
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.details).toMatchObject({ parked: 1 });
    // The confirmation lands and a capture already on its way (a poll's, decided before the park) goes through.
    authorise(intentId)();
    fake.ledger.capture(intentId, undefined);
    expect(fake.ledger.retrieve(intentId).status).toBe("succeeded");
    const polled = await orderResult(app, cart);
    expect((polled.body as ResultBody).status, polled.text).toMatch(/^(order_pending|completed)$/);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["succeeded"]);
  });
});

describe("a capture that lands just before the job parks its payment", () => {
  it("is carried on to the order, not parked as charged without one", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    // The report's one capture is refused: payment_pending.
    refuse(intentId, "capture");
    const paid = await pay(app, cart, undefined);
    expect(paid.body, paid.text).toMatchObject({ status: "payment_pending" });
    advanceClock(app, 120_000);
    // The job's capture is refused too, while a poll's is on its way. The job reads the intent twice in its
    // settlement (before and after its capture), gives up, and reads it a third time in releaseOrPark: by
    // then the poll's capture has landed at Stripe, and the poll waits for the cart's lock.
    refuse(intentId, "capture");
    let landed!: () => void;
    const pollCaptured = new Promise<void>((resolve) => (landed = resolve));
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let poll: ReturnType<typeof orderResult> | undefined;
    hookIntent(intentId, {
      beforeRetrieve: [
        [
          3,
          async () => {
            poll = orderResult(app, cart);
            await pollCaptured;
          },
        ],
      ],
      afterCapture: [
        [
          1,
          async () => {
            landed();
            await gate;
          },
        ],
      ],
    });
    await jobBesideHeldPoll(cart, intentId, openGate, () => poll);
  });
});

describe("refusals that leave the intent as it was", () => {
  it("a cancellation refused with another error after a kept confirmation error: the customer is told payment_pending, not an internal error", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/confirm$`), kind: "status", status: 500, kept: "before" });
    fake.inject({ method: "POST", path: new RegExp(`^/v1/payment_intents/${intentId}/cancel$`), kind: "status", status: 400 });
    const first = await pay(app, cart, "pm_card_visa");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: "payment_pending" });
    expect((await readCart(app, cart)).status).toBe("LOCKED");
    // The next settlement cancels, and the customer is told to start again.
    const polled = await orderResult(app, cart);
    expect(polled.body).toMatchObject({ status: "failed", failure: { code: "processor_error", message: expect.stringMatching(/start the payment again/) as unknown } });
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
  });

  it("captures refused while the intent reads authorised: one capture per settlement, pending for the customer, parked by the job", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    refuse(intentId, "capture", 10);
    const capturesSent = () => fake.requests.filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`).length;
    const paid = await pay(app, cart, undefined);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: "payment_pending" });
    expect(capturesSent()).toBe(1);
    advanceClock(app, 120_000);
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "parked", reason: "INTERNAL_ERROR" }]);
    // The job's settlement sends one capture of its own, then parks the payment.
    expect(capturesSent()).toBe(2);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status)).toEqual(["needs_review"]);
    expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
  });
});

describe("after the job canceled the intent itself", () => {
  it("the customer is told to start the payment again, not to try the canceled intent again", async () => {
    const { cart, intentId } = await pendingAfterKeptConfirmation();
    // The settlement's cancellation is refused with the intent open; releaseOrPark's goes through.
    refuse(intentId, "cancel");
    const report = await runJob(app.deps, "reconcile-payments");
    expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "released", reason: "INTERNAL_ERROR" }]);
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    const polled = await orderResult(app, cart);
    expect(polled.body).toMatchObject({ status: "failed", failure: { code: "processor_error", message: expect.stringMatching(/start the payment again/) as unknown } });
  });
});

describe("an expired cart's authorisation the processor refuses to cancel", () => {
  it("is named in the job's report as held, every run, instead of left quietly", async () => {
    const cart = await pricedCart(app);
    const intentId = await sessionIntentId(app, cart);
    expect(await confirmInBrowser(fake, intentId, "pm_card_visa")).toBe("requires_capture");
    // Neither the report nor the webhook arrives, and the cart expires with the card held.
    advanceClock(app, 25 * 3_600_000);
    // One cancellation per run, refused in two runs.
    refuse(intentId, "cancel", 2);
    for (let run = 0; run < 2; run += 1) {
      const report = await runJob(app.deps, "reconcile-payments");
      expect(report.attention).toEqual([{ cartId: cart.cartId, outcome: "held", reason: "INTERNAL_ERROR" }]);
      expect(report.details).toMatchObject({ held: 1 });
      expect(fake.ledger.retrieve(intentId).status).toBe("requires_capture");
    }
    // The card still holds the authorisation: the customer is not told the cart went unpaid, and the
    // poll only reads the intent (cancellations are the job's).
    const sent = fake.requests.length;
    expect(((await orderResult(app, cart)).body as ResultBody).status).toBe("payment_pending");
    expect(fake.requests.slice(sent).map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v1/payment_intents/${intentId}`]);
    // Once Stripe takes the cancellation, the next run releases the hold.
    const next = await runJob(app.deps, "reconcile-payments");
    expect(next.attention).toEqual([]);
    expect(fake.ledger.retrieve(intentId).status).toBe("canceled");
    const [attempt] = await app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.cartId));
    expect(attempt).toBeUndefined();
    expect((await orderResult(app, cart)).body).toMatchObject({ status: "failed", failure: { code: "cart_expired" } });
  });


});
