import { and, desc, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { carts, orders, paymentAttempts, paymentSessions } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { failureOf, intentCarriesTerms, intentTermsFor, type PaymentFailure, type ProcessorIntent } from "../../domain/payments";
import { isPaymentProcessorError } from "../../integrations/payments/types";
import { toAppError } from "../../errors-map";
import { logger } from "../../log";
import { newId } from "../../security/tokens";
import { lockCart, type CartRow } from "../cart-access";
import { effectiveStatus } from "../cart-view";
import { findLocation } from "../locations";
import { placeOrder } from "./order-placement";
import { forgottenIsGone, isLostIntent, keptUnderKey, lostIntent, processorCall, retrieveOrNull } from "./processor-calls";
import { offerFactsOf, payabilityBlockers, settlementBlockers } from "./quote-guard";

type AttemptRow = typeof paymentAttempts.$inferSelect;

/**
 * The next thing the finalizer must do outside a transaction, or nothing. `stateKey` names the
 * state of the pending attempt the step was decided on; an intent read for one attempt state is
 * never used to decide about another (see `attemptStateKey`).
 */
type Step =
  | { kind: "done" }
  | { kind: "observe"; intentId: string; stateKey: string }
  | { kind: "confirm"; attemptId: string; intentId: string; paymentMethodId: string; idempotencyKey: string }
  | { kind: "capture"; intentId: string; idempotencyKey: string; stateKey: string }
  | { kind: "release"; intentId: string; idempotencyKey: string; stateKey: string };

/** An intent as read from the processor, and the attempt state it was read after (undefined: read before any decision). */
type Observation = { intent: ProcessorIntent; stateKey: string | undefined };

const MAX_STEPS = 8;

/**
 * The only writer of a payment's outcome. The client's report (POST .../payments), order-result
 * polling and the processor's webhook all call it, in any order, any number of times, at once.
 *
 * Each step is decided in one transaction holding the cart row lock (SELECT ... FOR UPDATE), from
 * the database and the intent as the processor reports it now (never from a webhook payload, so a
 * late or repeated event cannot move anything backwards). Processor calls happen between
 * transactions. A confirmation carries its attempt's key, the same for every caller, so that a
 * repeated one finds the card's first answer, and a server error the processor keeps under that key
 * is taken as its refusal; a capture or cancellation carries a key of its own for each try (the
 * intent refuses a second one, and the refusal is read as the intent's state).
 *
 * Money moves only by capture, and capture happens only while the cart is LOCKED for an attempt on
 * that intent, the authorized amount, currency, cart and quote equal the locked cart's quote, and
 * the order has just been placed and rolled back (rehearseOrder): an order that cannot be stored
 * is found before the card is charged, not after.
 * Exactly one order per cart is the `orders.cart_id` unique constraint; the lock makes it the
 * normal path rather than an error path.
 */
export async function settleCart(deps: AppDeps, cartId: string, options: { observed?: ProcessorIntent; refusedCancellation?: "wait" | "throw" } = {}): Promise<void> {
  let observation: Observation | undefined = options.observed ? { intent: options.observed, stateKey: undefined } : undefined;
  let confirmedAttempt: string | undefined;
  const released = new Set<string>();
  const captured = new Set<string>();
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const current = observation;
    const step = await deps.database.db.transaction((tx) => decide(tx, deps, cartId, current, confirmedAttempt));
    confirmedAttempt = undefined;
    switch (step.kind) {
      case "done":
        return;
      case "observe":
        observation = { intent: (await retrieveOrNull(deps, step.intentId)) ?? lostIntent(step.intentId), stateKey: step.stateKey };
        break;
      case "confirm":
        // The confirmation's own answer: decide() marks the attempt confirmed and trusts it.
        try {
          observation = { intent: await confirm(deps, step), stateKey: undefined };
        } catch (error) {
          if (!(error instanceof CancellationRefused) || options.refusedCancellation === "throw") throw error;
          return;
        }
        confirmedAttempt = step.attemptId;
        break;
      // One capture and one cancellation per intent and settlement: one the processor refused, leaving
      // the intent as it was, is left for the next settlement (the cart stays LOCKED, its result
      // payment_pending) rather than sent again and again here. The reconciliation job asks for the
      // refusal to be thrown instead, so that it parks the payment for review (releaseOrPark) rather
      // than meet it on every run.
      case "capture":
        if (captured.has(step.intentId)) {
          if (options.refusedCancellation === "throw") throw new Error(`the card processor refused to capture intent ${step.intentId}, which still reads authorised`);
          return;
        }
        captured.add(step.intentId);
        observation = { intent: await capture(deps, step), stateKey: step.stateKey };
        break;
      case "release":
        if (released.has(step.intentId)) {
          // An expired cart's intent (no attempt waits on it) that holds nothing is left for the next
          // run quietly: nothing to park. One that holds an authorisation is named for review.
          const holdsMoney = !HOLDS_NO_MONEY.has(observation?.intent.status ?? "requires_payment_method");
          const forAttempt = step.stateKey !== attemptStateKey(undefined);
          if (options.refusedCancellation === "throw" && (forAttempt || holdsMoney)) throw new CancellationRefused(step.intentId, { forAttempt });
          return;
        }
        released.add(step.intentId);
        observation = { intent: await release(deps, step), stateKey: step.stateKey };
        break;
    }
  }
  throw new Error(`settlement of cart ${cartId} did not finish in ${MAX_STEPS} steps`);
}

/**
 * The pending attempt's state as far as reading the intent goes: which attempt, and whether its
 * confirmation was sent. An intent read before the attempt existed or before its confirmation (by a
 * webhook or a poll racing the report) may show a state the confirmation has since replaced; acting
 * on it could fail an attempt that is being authorized. So an attempt is decided on only with an
 * intent read after a transaction saw the attempt in the same state.
 */
function attemptStateKey(attempt: AttemptRow | undefined): string {
  return attempt ? `${attempt.id}|${attempt.confirmedAt ? "confirmed" : "unconfirmed"}${isUnplaceable(attempt) ? "|unplaceable" : ""}` : "none";
}

async function decide(tx: Tx, deps: AppDeps, cartId: string, observation: Observation | undefined, confirmedAttempt: string | undefined): Promise<Step> {
  const cart = await lockCart(tx, cartId);
  if (!cart) return { kind: "done" };
  const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.cartId, cartId));
  if (order) return { kind: "done" };

  const [attempt] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.cartId, cartId), eq(paymentAttempts.status, "pending")));
  let trusted = false;
  if (attempt && confirmedAttempt === attempt.id && !attempt.confirmedAt) {
    attempt.confirmedAt = deps.now();
    await tx.update(paymentAttempts).set({ confirmedAt: attempt.confirmedAt }).where(eq(paymentAttempts.id, attempt.id));
    trusted = true;
  }
  // A server-side confirmation recorded but not known to have been sent: send it (again, same key), while
  // the quote is still payable. Left unsent by an outage, it must not go out hours later for an order
  // time long past or a menu no longer served: then what the intent is now decides.
  if (attempt?.paymentMethodId && attempt.confirmKey && !attempt.confirmedAt) {
    if (await payableNow(tx, cart, deps.now())) {
      return { kind: "confirm", attemptId: attempt.id, intentId: attempt.intentId, paymentMethodId: attempt.paymentMethodId, idempotencyKey: attempt.confirmKey };
    }
    const stateKey = attemptStateKey(attempt);
    const intent = observation?.intent;
    if (intent?.id !== attempt.intentId || observation?.stateKey !== stateKey) return { kind: "observe", intentId: attempt.intentId, stateKey };
    if (HOLDS_NO_MONEY.has(intent.status)) {
      // The card holds nothing now, and the confirmation is never sent again. But one sent earlier may
      // still be on its way (a timeout is not a refusal) and authorise after the customer was told
      // nothing was charged: the intent is canceled first, with a key of its own for each try. Once it
      // is canceled no confirmation can authorise, and one that did meanwhile is voided with it.
      if (intent.status !== "canceled") return { kind: "release", intentId: intent.id, idempotencyKey: tryKey(deps, intent.id, "cancel-unpayable"), stateKey };
      await failAttempt(tx, deps, cart, attempt, QUOTE_NOT_PAYABLE);
      return { kind: "done" };
    }
    // The first send reached the processor after all: carried on as any confirmed attempt.
    const confirmed = { ...attempt, confirmedAt: deps.now() };
    await tx.update(paymentAttempts).set({ confirmedAt: confirmed.confirmedAt }).where(eq(paymentAttempts.id, attempt.id));
    return decideForAttempt(tx, deps, cart, confirmed, intent, attemptStateKey(confirmed));
  }

  const [session] = await tx.select().from(paymentSessions).where(eq(paymentSessions.cartId, cartId));
  const observed = observation?.intent;
  const intentId = attempt?.intentId ?? observed?.id ?? session?.intentId;
  if (!intentId) return { kind: "done" };
  const stateKey = attemptStateKey(attempt);
  const current = observed?.id === intentId && (trusted || !attempt || observation?.stateKey === stateKey);
  if (!observed || !current) return { kind: "observe", intentId, stateKey };

  return attempt ? decideForAttempt(tx, deps, cart, attempt, observed, stateKey) : decideWithoutAttempt(tx, deps, cart, session ?? null, observed);
}

/** The cart is LOCKED for this attempt: carry it to an order, or release the cart. */
async function decideForAttempt(tx: Tx, deps: AppDeps, cart: CartRow, attempt: AttemptRow, intent: ProcessorIntent, stateKey: string): Promise<Step> {
  if (isUnplaceable(attempt) && intent.status !== "succeeded") return releaseUnplaceable(tx, deps, cart, attempt, intent, stateKey);
  const carriesQuote = carriesCartQuote(cart, intent);
  switch (intent.status) {
    case "succeeded":
      if (carriesQuote) {
        await placeOrder(tx, deps, cart, attempt, intent);
        return { kind: "done" };
      }
      // Captured elsewhere for other terms: never turn it into an order for this cart by guesswork.
      logger.error({ cartId: cart.id, intentId: intent.id }, "a captured intent does not match its locked cart; manual review needed");
      return { kind: "done" };
    case "requires_capture":
      if (carriesQuote) {
        const unplaceable = await rehearseOrder(tx, cart, attempt, intent, deps);
        // A key of its own for each try, as releaseUnplaceable's: the processor answers a key's first
        // outcome again, a server error included, and capturing is safe to repeat (a captured intent
        // refuses a second capture, and `capture` then reads the intent as it is).
        if (unplaceable === undefined) return { kind: "capture", intentId: intent.id, idempotencyKey: tryKey(deps, intent.id, "capture"), stateKey };
        logger.error({ cartId: cart.id, intentId: intent.id, err: unplaceable }, "the paid order cannot be stored: its authorization is canceled, never captured");
        // Recorded before the cancellation is sent, and kept while it is not done: whoever settles this
        // cart next (the report, a poll, the webhook, the reconciliation job) cancels, never captures.
        const marked = { ...attempt, failureCode: ORDER_NOT_PLACED.code, failureMessage: ORDER_NOT_PLACED.message };
        await tx.update(paymentAttempts).set({ failureCode: marked.failureCode, failureMessage: marked.failureMessage }).where(eq(paymentAttempts.id, attempt.id));
        return releaseUnplaceable(tx, deps, cart, marked, intent, attemptStateKey(marked));
      }
      await failAttempt(tx, deps, cart, attempt, {
        code: "quote_changed",
        message: "The card was authorized for a different amount than the cart's current total; create the payment session again and pay.",
      });
      return { kind: "done" };
    case "processing":
      return { kind: "done" };
    case "requires_payment_method":
    case "requires_confirmation":
    case "requires_action":
    case "canceled":
      await failAttempt(tx, deps, cart, attempt, failureOf(intent));
      return { kind: "done" };
  }
}

/**
 * No attempt is pending: the customer confirmed in the browser and the processor's webhook (or a
 * poll) arrived before the client's report. An authorization for exactly the cart's payable quote
 * (settlementBlockers: what the client's report checks too) is taken as the customer's payment: the
 * cart is locked for it and it goes on as any attempt does (the order rehearsed, then the capture),
 * so a customer whose browser closed after confirming still gets the order they paid for.
 */
async function decideWithoutAttempt(tx: Tx, deps: AppDeps, cart: CartRow, session: { intentId: string | null; processor: string } | null, intent: ProcessorIntent): Promise<Step> {
  const now = deps.now();
  const sessionIntentId = session?.intentId ?? null;
  if (cart.status === "LOCKED" && intent.status === "succeeded") return orderParkedCapture(tx, deps, cart, intent);
  // The session's own intent is retired once the cart has expired; a lost one (no metadata: the processor
  // forgot it, e.g. the simulated processor's memory after a restart) too, when it is gone for good.
  const forgotten = isLostIntent(intent) && session !== null && forgottenIsGone(session.processor, deps.payments.name);
  if (intent.id === sessionIntentId && (intent.metadata.cartId === cart.id || forgotten) && effectiveStatus(cart, now) === "EXPIRED") return retireIntentOfExpiredCart(tx, deps, cart, intent);
  if (intent.metadata.cartId !== cart.id || cart.quoteFingerprint === null || effectiveStatus(cart, now) !== "OPEN") return { kind: "done" };
  const carriesQuote = carriesCartQuote(cart, intent);
  if (intent.status === "requires_capture" && carriesQuote && intent.id === sessionIntentId) {
    const location = await findLocation(tx, cart.locationId, { allowSlug: false });
    if (settlementBlockers(cart, location, now).length > 0) return { kind: "done" };
    const attempt = await lockForAttempt(tx, deps, cart, { intentId: intent.id, source: "webhook" });
    return decideForAttempt(tx, deps, lockedFor(cart, now), attempt, intent, attemptStateKey(attempt));
  }
  if (intent.status === "succeeded") {
    if (!carriesQuote) {
      logger.error({ cartId: cart.id, intentId: intent.id }, "an intent of this cart was captured for other terms; manual refund needed");
      return { kind: "done" };
    }
    // Captured outside this service's capture path for exactly this quote: the customer paid for it.
    const attempt = await lockForAttempt(tx, deps, cart, { intentId: intent.id, source: "webhook" });
    await placeOrder(tx, deps, lockedFor(cart, now), attempt, intent);
  }
  return { kind: "done" };
}

/**
 * A LOCKED cart with no pending attempt is parked for review (releaseOrPark). Its intent captured
 * means a capture already on its way when the attempt was parked went through: the customer paid,
 * and the order the capture was rehearsed for is placed, as the capture's own settlement would have.
 * One that cannot be stored, or an intent captured for other terms, stays parked and says it was charged.
 */
async function orderParkedCapture(tx: Tx, deps: AppDeps, cart: CartRow, intent: ProcessorIntent): Promise<Step> {
  const [parked] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.cartId, cart.id), eq(paymentAttempts.intentId, intent.id), eq(paymentAttempts.status, "needs_review")))
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(1);
  if (!parked || parked.failureCode === CHARGED_WITHOUT_ORDER.code) return { kind: "done" };
  const carriesQuote = carriesCartQuote(cart, intent);
  const unplaceable = carriesQuote && parked.failureCode === null ? await rehearseOrder(tx, cart, parked, intent, deps) : "not the parked payment's terms";
  if (unplaceable === undefined) {
    logger.warn({ cartId: cart.id, intentId: intent.id }, "a capture went through after its payment was parked: the order is placed");
    await placeOrder(tx, deps, cart, parked, intent);
    return { kind: "done" };
  }
  logger.error({ cartId: cart.id, intentId: intent.id, err: unplaceable }, "a parked payment's intent was captured and its order cannot be placed; manual review needed");
  await tx.update(paymentAttempts).set({ failureCode: CHARGED_WITHOUT_ORDER.code, failureMessage: CHARGED_WITHOUT_ORDER.message }).where(eq(paymentAttempts.id, parked.id));
  return { kind: "done" };
}

/** Whether the intent carries exactly the cart's current quote: amount, currency, cart and quote fingerprint. */
function carriesCartQuote(cart: CartRow, intent: ProcessorIntent): boolean {
  return cart.quoteFingerprint !== null && intentCarriesTerms(intent, intentTermsFor({ ...cart, quoteFingerprint: cart.quoteFingerprint }));
}

/** The statuses in which an intent can still be confirmed or captured, and can be canceled. */
const OPEN_INTENT_STATUSES = new Set<ProcessorIntent["status"]>(["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture"]);

/**
 * The cart expired (idle) with its payment session's intent still open: nothing will be paid with
 * it any more. An authorization (the customer confirmed in the browser, and neither the report nor
 * the webhook settled it while the cart could be paid) is canceled, so that the card's hold goes now
 * rather than when the processor drops it days later; an intent never confirmed is canceled too, so
 * that a late confirmation fails. Once canceled, the session forgets the intent and the
 * reconciliation job stops visiting the cart.
 */
async function retireIntentOfExpiredCart(tx: Tx, deps: AppDeps, cart: CartRow, intent: ProcessorIntent): Promise<Step> {
  if (OPEN_INTENT_STATUSES.has(intent.status)) {
    // A key of its own for each try, as releaseUnplaceable's.
    return { kind: "release", intentId: intent.id, idempotencyKey: tryKey(deps, intent.id, "cancel-expired-cart"), stateKey: attemptStateKey(undefined) };
  }
  if (intent.status === "canceled") {
    await tx
      .update(paymentSessions)
      .set({ intentId: null, updatedAt: deps.now() })
      .where(and(eq(paymentSessions.cartId, cart.id), eq(paymentSessions.intentId, intent.id)));
  } else if (intent.status === "succeeded") {
    logger.error({ cartId: cart.id, intentId: intent.id }, "an intent of an expired cart was captured outside this service; manual refund needed");
  }
  return { kind: "done" };
}

/**
 * A pending attempt whose order the database would not store (rehearseOrder). The cart stays LOCKED
 * until the card holds nothing: the authorization is canceled (again, with the same key, by whoever
 * settles next), and only then does the attempt fail and the cart reopen. A capture made elsewhere
 * meanwhile (`succeeded`) is carried on as usual by the caller.
 */
async function releaseUnplaceable(tx: Tx, deps: AppDeps, cart: CartRow, attempt: AttemptRow, intent: ProcessorIntent, stateKey: string): Promise<Step> {
  // A key of its own for each try: the processor answers a key's first outcome again, an error
  // included (Stripe keeps it 24 hours), and canceling is safe to repeat (a canceled intent refuses
  // it, and `release` then reads the intent as it is).
  if (intent.status === "requires_capture") return { kind: "release", intentId: intent.id, idempotencyKey: tryKey(deps, intent.id, "cancel-unplaceable"), stateKey };
  if (intent.status === "processing") return { kind: "done" };
  await failAttempt(tx, deps, cart, attempt, ORDER_NOT_PLACED);
  return { kind: "done" };
}

const QUOTE_NOT_PAYABLE = {
  code: "quote_not_payable",
  message: "The payment could not be sent while the cart's quote was payable (the order time, menus or prices have moved on since): nothing was charged; price the cart again and pay.",
};

/** Whether the locked cart's quote could be paid now, as a payment the server confirms requires (assertQuotePayable). */
async function payableNow(tx: Tx, cart: CartRow, now: Date): Promise<boolean> {
  const location = await findLocation(tx, cart.locationId, { allowSlug: false });
  return payabilityBlockers(cart, now, { location, offer: await offerFactsOf(tx, location, cart) }).blockers.length === 0;
}

const CHARGED_WITHOUT_ORDER = {
  code: "charged_without_order",
  message: "The card was charged but the order could not be stored: place the order by hand or refund the charge.",
};

const isUnplaceable = (attempt: AttemptRow) => attempt.status === "pending" && attempt.failureCode === ORDER_NOT_PLACED.code;

/** The cart as lockForAttempt left it. */
function lockedFor(cart: CartRow, now: Date): CartRow {
  return { ...cart, revision: cart.revision + 1, status: "LOCKED", lockedAt: now };
}

const ORDER_NOT_PLACED = {
  code: "order_not_placed",
  message: "The order could not be placed, so the card was not charged and its hold is released; contact the restaurant.",
};

/**
 * The key of one try of a capture or cancellation: its own for each try, since the processor answers a
 * key's first outcome again (a server error included), and the intent refuses a second one anyway.
 */
function tryKey(deps: AppDeps, intentId: string, purpose: string): string {
  return `${intentId}:${purpose}:${deps.now().getTime()}`;
}

/**
 * The processor refused to cancel an intent that still reads open. settleCart leaves the payment pending
 * for the next settlement, or, for the reconciliation job, throws this so that releaseOrPark parks it.
 */
export class CancellationRefused extends Error {
  readonly intentId: string;
  /** False for an expired cart's intent, which no attempt waits on: there is no attempt to park. */
  readonly forAttempt: boolean;

  constructor(intentId: string, { forAttempt }: { forAttempt: boolean } = { forAttempt: true }) {
    super(`the card processor refused to cancel intent ${intentId}, which still reads open`);
    this.name = "CancellationRefused";
    this.intentId = intentId;
    this.forAttempt = forAttempt;
  }
}

/** Rolls back the savepoint a rehearsal ran in; anything else thrown there is the rehearsal's answer. */
class Rehearsed extends Error {}

/**
 * Places the order in a savepoint and rolls it back, just before the capture: the undefined answer
 * says every row of it can be stored now, else the error is the reason it cannot (a value out of
 * range, a constraint, a bug). Order hooks write only rows (order-hooks.ts), so nothing outlives the
 * rollback. A database outage is thrown, not answered: the next settlement tries again.
 */
async function rehearseOrder(tx: Tx, cart: CartRow, attempt: AttemptRow, intent: ProcessorIntent, deps: AppDeps): Promise<unknown> {
  try {
    await tx.transaction(async (savepoint) => {
      await placeOrder(savepoint, deps, cart, attempt, intent);
      throw new Rehearsed("rehearsal rolled back");
    });
  } catch (error) {
    if (error instanceof Rehearsed) return undefined;
    if (isTransient(error)) throw error;
    return error;
  }
  throw new Error("the rehearsal savepoint committed");
}

/** Locks the (row-locked, OPEN) cart for a new pending attempt on `intentId`. */
export async function lockForAttempt(
  tx: Tx,
  deps: AppDeps,
  cart: CartRow,
  attempt: { intentId: string; source: "client" | "webhook"; paymentMethodId?: string | undefined },
): Promise<AttemptRow> {
  const now = deps.now();
  const id = newId("pay");
  const [row] = await tx
    .insert(paymentAttempts)
    .values({
      id,
      cartId: cart.id,
      intentId: attempt.intentId,
      source: attempt.source,
      paymentMethodId: attempt.paymentMethodId ?? null,
      confirmKey: attempt.paymentMethodId ? `${id}:confirm` : null,
      // Without a payment method the customer confirmed in the browser before reporting.
      confirmedAt: attempt.paymentMethodId ? null : now,
      status: "pending",
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error("insert returned no payment attempt");
  await tx.update(carts).set({ status: "LOCKED", lockedAt: now, revision: cart.revision + 1, updatedAt: now }).where(eq(carts.id, cart.id));
  return row;
}

/** A definitive failure: the attempt records why, and the cart is OPEN again (a new revision) for another card. */
async function failAttempt(tx: Tx, deps: AppDeps, cart: CartRow, attempt: AttemptRow, failure: PaymentFailure): Promise<void> {
  const now = deps.now();
  await tx
    .update(paymentAttempts)
    .set({ status: "failed", failureCode: failure.code, failureMessage: failure.message, resolvedAt: now })
    .where(eq(paymentAttempts.id, attempt.id));
  await tx
    .update(carts)
    .set({ status: "OPEN", lockedAt: null, revision: cart.revision + 1, updatedAt: now, expiresAt: new Date(now.getTime() + deps.env.CART_IDLE_TTL_MINUTES * 60_000) })
    .where(eq(carts.id, cart.id));
}

async function confirm(deps: AppDeps, step: Extract<Step, { kind: "confirm" }>): Promise<ProcessorIntent> {
  try {
    return await processorCall(() => deps.payments.confirmIntent({ intentId: step.intentId, paymentMethodId: step.paymentMethodId, idempotencyKey: step.idempotencyKey }));
  } catch (error) {
    // A server error the processor keeps under the key is its last word on this confirmation: the
    // same key would only get it again, for a day. It is taken as a refusal, below, and never sent
    // with another key: the card may have been tried and declined before the error, and a second
    // try at it is the customer's to make (paying again is a new attempt, on a new intent).
    const kept = keptUnderKey(error);
    // Unreachable: the confirmation may have happened; the next caller sends it again with the same
    // key. Not the processor's answer at all (a crash, a bug): the cart stays LOCKED for the next
    // caller or the reconciliation job (`releaseOrPark`).
    if (!kept && (!isPaymentProcessorError(error) || error.kind === "unavailable")) throw error;
    // A refusal: what the intent is now decides. Unconfirmed, it holds no money and the attempt
    // fails (the cart reopens); authorized meanwhile, it is carried on as usual.
    const current = (await retrieveOrNull(deps, step.intentId)) ?? lostIntent(step.intentId);
    if (current.status !== "requires_payment_method" && current.status !== "requires_confirmation") return current;
    logger.warn({ intentId: step.intentId, err: error }, "the card processor refused a confirmation");
    if (kept) {
      // A server error leaves what the processor did with the confirmation open: it may still settle
      // it. The intent is canceled before the attempt fails, as for quote_not_payable, so that nothing
      // can be authorised after the customer is told nothing was charged.
      const canceled = await release(deps, { kind: "release", intentId: step.intentId, idempotencyKey: tryKey(deps, step.intentId, "cancel-refused"), stateKey: "" });
      // Told as the processor's failure it is (failureOf would say "canceled" of a canceled intent).
      if (canceled.status === "canceled") return { ...canceled, status: "requires_payment_method", lastError: PROCESSOR_FAILED };
      // Not canceled and still open: the confirmation may yet authorise, so the payment stays pending
      // (the cart LOCKED) and the next settlement tries again (settleCart).
      if (canceled.status === "requires_payment_method" || canceled.status === "requires_confirmation") throw new CancellationRefused(step.intentId);
      return canceled;
    }
    const invalidMethod = isPaymentProcessorError(error) && error.kind === "invalid_request";
    return { ...current, status: "requires_payment_method", lastError: invalidMethod ? INVALID_PAYMENT_METHOD : PROCESSOR_REFUSED };
  }
}

const INVALID_PAYMENT_METHOD = { code: "invalid_payment_method", message: "The card processor did not accept this payment method; try another card." };
const PROCESSOR_REFUSED = { code: "processor_error", message: "The card processor could not complete this payment and nothing was charged; try again or use another card." };
/** A server error on the confirmation, after which the intent was canceled: paying again needs a new payment session. */
const PROCESSOR_FAILED = { code: "processor_error", message: "The card processor failed while confirming this payment, so it was canceled and nothing was charged; start the payment again." };

/** A failure that a later try may not meet: the processor or the database out of reach. */
function isTransient(error: unknown): boolean {
  if (isPaymentProcessorError(error)) return error.kind === "unavailable";
  return toAppError(error).code === "DEPENDENCY_UNAVAILABLE";
}

/** Intent states in which the card holds no money for this cart. */
const HOLDS_NO_MONEY: ReadonlySet<ProcessorIntent["status"]> = new Set(["requires_payment_method", "requires_confirmation", "requires_action", "canceled"]);

/**
 * settled: the refusal that sent the cart here no longer held (the card was authorised meanwhile), and
 * the payment went on as any other; held: an expired cart's authorisation the processor refuses to
 * cancel, with no attempt to park.
 */
export type Unsettled = { outcome: "released" | "parked" | "settled" | "held" | "unchanged"; intentId?: string };

/** Intent states in which the card is authorised for, or charged with, the attempt's amount. */
const AUTHORISED: ReadonlySet<ProcessorIntent["status"]> = new Set(["requires_capture", "processing", "succeeded"]);

/**
 * For a LOCKED cart whose settlement failed for a reason a retry will not cure (a bug, a
 * processor refusing us): release the cart when the card holds no money for it (the attempt fails,
 * the customer may pay again), else park the attempt as `needs_review` so that no automatic path
 * meets it again, and say so in the logs. A processor or database outage is thrown, never parked.
 */
export async function releaseOrPark(deps: AppDeps, cartId: string, cause: unknown): Promise<Unsettled> {
  const [pending] = await deps.database.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.cartId, cartId), eq(paymentAttempts.status, "pending")));
  if (!pending) return cause instanceof CancellationRefused && !cause.forAttempt ? { outcome: "held", intentId: cause.intentId } : { outcome: "unchanged" };
  let intent: ProcessorIntent | undefined;
  try {
    intent = (await retrieveOrNull(deps, pending.intentId)) ?? lostIntent(pending.intentId);
    // A confirmation the service sent and never heard back about may still authorise an intent that
    // holds nothing now: it is canceled before the cart is released, so that the customer is not
    // told nothing is held when it may soon be. A cancellation that fails leaves it parked, below.
    if (pending.confirmKey !== null && pending.confirmedAt === null && intent.status !== "canceled" && HOLDS_NO_MONEY.has(intent.status)) {
      intent = await release(deps, { kind: "release", intentId: intent.id, idempotencyKey: tryKey(deps, intent.id, "cancel-unsettled"), stateKey: "" });
    }
  } catch (error) {
    if (isTransient(error)) throw error;
    intent = undefined;
  }
  // Nothing is stuck any more when the card was captured meanwhile (a capture already on its way landed),
  // or when a cancellation was refused because the card was authorised meanwhile (the confirmation it
  // was meant to stop landed): the payment goes on to its order as any other. Parked, it would be
  // charged without its order, or hold the card with nothing to capture or release it.
  const carriedOn = intent?.status === "succeeded" || (cause instanceof CancellationRefused && intent !== undefined && AUTHORISED.has(intent.status));
  if (carriedOn && !isUnplaceable(pending)) {
    try {
      await settleCart(deps, cartId);
      intent = (await retrieveOrNull(deps, pending.intentId)) ?? lostIntent(pending.intentId);
      // Still pending: settled but for an intent captured for other terms (parked below, as charged), or
      // left for the next settlement (a refused capture: the job's next run parks it).
      if (intent.status !== "succeeded" || !(await stillPending(deps, pending.id))) return { outcome: "settled", intentId: pending.intentId };
    } catch (error) {
      if (isTransient(error)) throw error;
      intent = (await retrieveOrNull(deps, pending.intentId)) ?? lostIntent(pending.intentId);
    }
  }
  return deps.database.db.transaction(async (tx): Promise<Unsettled> => {
    const cart = await lockCart(tx, cartId);
    const [attempt] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.cartId, cartId), eq(paymentAttempts.status, "pending")));
    if (!cart || !attempt || attempt.intentId !== pending.intentId) return { outcome: "unchanged" };
    const confirmationUnanswered = attempt.confirmKey !== null && attempt.confirmedAt === null && intent?.status !== "canceled";
    if (intent && HOLDS_NO_MONEY.has(intent.status) && !confirmationUnanswered) {
      await failAttempt(tx, deps, cart, attempt, await releasedFailure(tx, deps, cart, attempt, intent));
      logger.warn({ cartId, intentId: attempt.intentId, err: cause }, "payment settlement failed; the card holds nothing, so the cart was released");
      return { outcome: "released", intentId: attempt.intentId };
    }
    // A parked attempt must say what the card holds: an intent captured without its order was charged.
    const chargedWithoutOrder = intent?.status === "succeeded" ? CHARGED_WITHOUT_ORDER : undefined;
    await tx
      .update(paymentAttempts)
      .set({ status: "needs_review", resolvedAt: deps.now(), ...(chargedWithoutOrder ? { failureCode: chargedWithoutOrder.code, failureMessage: chargedWithoutOrder.message } : {}) })
      .where(eq(paymentAttempts.id, attempt.id));
    logger.error(
      { cartId, intentId: attempt.intentId, intentStatus: intent?.status ?? "unreadable", err: cause },
      "payment settlement failed and the card may hold money: attempt parked for manual review",
    );
    return { outcome: "parked", intentId: attempt.intentId };
  });
}

async function stillPending(deps: AppDeps, attemptId: string): Promise<boolean> {
  const [attempt] = await deps.database.db.select({ status: paymentAttempts.status }).from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
  return attempt?.status === "pending";
}

/**
 * What the customer is told of an attempt releaseOrPark failed: why the order could not be placed; or,
 * when its intent is canceled (paying again needs a new payment session), that the quote can no longer
 * be paid or that the processor failed; else that the card may be tried again.
 */
async function releasedFailure(tx: Tx, deps: AppDeps, cart: CartRow, attempt: AttemptRow, intent: ProcessorIntent): Promise<PaymentFailure> {
  if (isUnplaceable(attempt)) return ORDER_NOT_PLACED;
  if (intent.status !== "canceled") return PROCESSOR_REFUSED;
  return (await payableNow(tx, cart, deps.now())) ? PROCESSOR_FAILED : QUOTE_NOT_PAYABLE;
}

/** Cancels an authorization that must not be captured; the intent as it is afterwards decides what follows. */
function release(deps: AppDeps, step: Extract<Step, { kind: "release" }>): Promise<ProcessorIntent> {
  return moveIntent(deps, step.intentId, () => deps.payments.cancelIntent({ intentId: step.intentId, idempotencyKey: step.idempotencyKey }));
}

function capture(deps: AppDeps, step: Extract<Step, { kind: "capture" }>): Promise<ProcessorIntent> {
  return moveIntent(deps, step.intentId, () => deps.payments.captureIntent({ intentId: step.intentId, idempotencyKey: step.idempotencyKey }));
}

/**
 * A capture or a cancellation, and the intent it left. One the processor refuses (the intent has
 * moved on: captured by a concurrent finalizer, canceled meanwhile, gone; or any other refusal) reads
 * the intent as it is now instead, and that decides what follows: settleCart sends one capture and
 * one cancellation per intent and settlement, so a refusal that leaves the intent as it was waits for
 * the next. A processor out of reach is thrown (the next caller tries again), as is anything else.
 */
async function moveIntent(deps: AppDeps, intentId: string, call: () => Promise<ProcessorIntent>): Promise<ProcessorIntent> {
  try {
    return await processorCall(call);
  } catch (error) {
    if (!isPaymentProcessorError(error) || error.kind === "unavailable") throw error;
    if (error.kind !== "invalid_state" && error.kind !== "not_found") logger.warn({ intentId, err: error }, "the card processor refused to capture or cancel an intent");
    return (await retrieveOrNull(deps, intentId)) ?? lostIntent(intentId);
  }
}
