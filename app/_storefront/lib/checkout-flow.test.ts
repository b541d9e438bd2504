import { describe, expect, it } from "vitest";
import { pay, type Confirmation, type PaySteps, type Step } from "./checkout-flow";
import { StorefrontError } from "./errors";
import type { Cart, OrderResult, PaymentSession } from "./types";

const FINGERPRINT = "f".repeat(64);
const session = (revision = FINGERPRINT): PaymentSession => ({ provider: "CARDPROCESSOR", clientSecret: "pi_1_secret_x", quote: { revision, total: { amount: 2850, currency: "USD" }, tip: { amount: 0, currency: "USD" } } });
const requote = () => new StorefrontError({ code: "REQUOTE_REQUIRED", message: "The cart's quote can no longer be paid", status: 409 });
const cartWith = (required: boolean) => ({ catalogRevalidation: required ? { required: true } : null }) as unknown as Cart;

/** Steps that answer from scripts and log the calls, in order. */
function steps(script: { sessions?: Step<PaymentSession>[]; confirmations?: Confirmation[]; reports?: Step<OrderResult>[]; checks?: Step<Cart>[] }) {
  const log: string[] = [];
  const next = <T>(list: T[] | undefined, name: string): T => {
    const value = list?.shift();
    if (value === undefined) throw new Error(`${name} was not expected`);
    return value;
  };
  const paySteps: PaySteps = {
    createSession: () => (log.push("session"), Promise.resolve(next(script.sessions, "session"))),
    confirm: (created) => (log.push(`confirm:${created.quote.revision.slice(0, 2)}`), Promise.resolve(script.confirmations ? next(script.confirmations, "confirm") : { ok: true })),
    report: (fingerprint) => (log.push(`report:${fingerprint.slice(0, 2)}`), Promise.resolve(next(script.reports, "report"))),
    check: () => (log.push("check"), Promise.resolve(next(script.checks, "check"))),
  };
  return { log, paySteps };
}

describe("pay", () => {
  it("creates the session, confirms, reports its quote, and goes on to the order status when placed", async () => {
    const pending: OrderResult = { status: "order_pending", orderId: "ord_1", pollAfterMs: 3000 };
    const { log, paySteps } = steps({ sessions: [{ ok: true, value: session() }], reports: [{ ok: true, value: pending }] });
    expect(await pay(paySteps)).toEqual({ kind: "placed", result: pending });
    expect(log).toEqual(["session", "confirm:ff", "report:ff"]);
  });

  it("reports a declined card as a failure to try again, not as an error", async () => {
    const declined: OrderResult = { status: "failed", failure: { code: "card_declined", message: "Your card was declined." } };
    const { paySteps } = steps({ sessions: [{ ok: true, value: session() }], reports: [{ ok: true, value: declined }] });
    expect(await pay(paySteps)).toEqual({ kind: "failed", failure: { code: "card_declined", message: "Your card was declined." } });
  });

  it("tells the server nothing when the card side refused the card", async () => {
    const refusal = { ok: false as const, failure: { code: "card_declined", message: "Your card has insufficient funds." } };
    const { log, paySteps } = steps({ sessions: [{ ok: true, value: session() }], confirmations: [refusal] });
    expect(await pay(paySteps)).toEqual({ kind: "failed", failure: refusal.failure });
    expect(log).toEqual(["session", "confirm:ff"]);
  });

  it("on REQUOTE_REQUIRED checks the cart and pays once more when nothing is left to decide", async () => {
    const renewed = "e".repeat(64);
    const completed: OrderResult = { status: "completed", orderId: "ord_1", receiptId: "rcpt_1", receiptToken: "rt_x" };
    const { log, paySteps } = steps({
      sessions: [{ ok: false, error: requote() }, { ok: true, value: session(renewed) }],
      checks: [{ ok: true, value: cartWith(false) }],
      reports: [{ ok: true, value: completed }],
    });
    expect(await pay(paySteps)).toEqual({ kind: "placed", result: completed });
    expect(log).toEqual(["session", "check", "session", "confirm:ee", "report:ee"]);
  });

  it("leads to the review when the check found changes the customer must see (also after a report)", async () => {
    const changed = cartWith(true);
    const { log, paySteps } = steps({ sessions: [{ ok: true, value: session() }], reports: [{ ok: false, error: requote() }], checks: [{ ok: true, value: changed }] });
    expect(await pay(paySteps)).toEqual({ kind: "review", cart: changed });
    expect(log).toEqual(["session", "confirm:ff", "report:ff", "check"]);
  });

  it("asks again only once: a second REQUOTE_REQUIRED is shown as an error", async () => {
    const second = requote();
    const { log, paySteps } = steps({ sessions: [{ ok: false, error: requote() }, { ok: false, error: second }], checks: [{ ok: true, value: cartWith(false) }] });
    expect(await pay(paySteps)).toEqual({ kind: "error", error: second });
    expect(log).toEqual(["session", "check", "session"]);
  });

  it("shows any other failure as an error without retrying", async () => {
    const tooSmall = new StorefrontError({ code: "RESOURCE_CONFLICT", message: "below the minimum charge", status: 409 });
    const { log, paySteps } = steps({ sessions: [{ ok: false, error: tooSmall }] });
    expect(await pay(paySteps)).toEqual({ kind: "error", error: tooSmall });
    expect(log).toEqual(["session"]);
  });
});
