import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { paymentSessions, type PendingIntentOperation } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { planIntentChange, type IntentTerms, type ProcessorIntent } from "../../domain/payments";
import { AppError } from "../../errors";
import { isPaymentProcessorError } from "../../integrations/payments/types";
import { keptUnderKey, nextTryKey, processorCall, retrieveOrNull } from "./processor-calls";

type SessionRow = typeof paymentSessions.$inferSelect;

const MAX_ROUNDS = 6;

/**
 * Brings the cart's one PaymentIntent in line with the quote and returns it (with its client
 * secret). Every processor write follows the same recovery pattern: record the call with the
 * idempotency key it will carry (one transaction), make the call (no transaction open), record the
 * result (another transaction). A crash in between leaves the call recorded as pending, and the
 * next request repeats exactly that call with exactly that key, so the processor answers with the
 * intent it already made instead of making a second one. A key the processor answered with a server
 * error is the exception: that answer is all the key would ever get, so the call moves to another
 * (executeRecorded).
 */
export async function reconcileIntent(deps: AppDeps, cartId: string, terms: IntentTerms): Promise<ProcessorIntent> {
  const db = deps.database.db;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const session = await readSession(db, cartId);
    if (session?.pending) {
      await recordResult(deps, cartId, session.pending, await executeRecorded(deps, cartId, session.pending));
      continue;
    }
    const current = session?.intentId ? await retrieveOrNull(deps, session.intentId) : null;
    const plan = planIntentChange(current, terms);
    if (plan === "ready") {
      if (current) return current;
      continue;
    }
    if (plan === "busy") {
      throw new AppError("RESOURCE_CONFLICT", "A payment for this cart is already being processed; poll the order result", {
        details: { reason: "PAYMENT_IN_PROGRESS" },
      });
    }
    const version = session?.version ?? 0;
    const pending = nextOperation(plan, cartId, current, terms, version + 1);
    // Another request changed the session since it was read: start over from what it recorded.
    if (!(await recordPending(deps, cartId, session ? version : null, pending))) continue;
    const intent = await executeRecorded(deps, cartId, pending);
    await recordResult(deps, cartId, pending, intent);
    if (pending.op !== "cancel" && intent && planIntentChange(intent, terms) === "ready") return intent;
  }
  throw new AppError("RESOURCE_CONFLICT", "The cart's payment session is being changed by another request; retry", { headers: { "Retry-After": "1" } });
}

/**
 * Idempotency keys are derived from the cart, the quote or intent, and the session version at which
 * the call was planned: unique per planned call, identical for every repetition of it.
 */
function nextOperation(plan: "update" | "cancel" | "create", cartId: string, current: ProcessorIntent | null, terms: IntentTerms, version: number): PendingIntentOperation {
  if (plan === "create" || current === null) {
    return { op: "create", idempotencyKey: `${cartId}:pi-create:${terms.metadata.quoteFingerprint.slice(0, 16)}:v${version}`, terms };
  }
  if (plan === "update") return { op: "update", idempotencyKey: `${cartId}:pi-update:${current.id}:v${version}`, intentId: current.id, terms };
  return { op: "cancel", idempotencyKey: `${cartId}:pi-cancel:${current.id}`, intentId: current.id };
}

/**
 * Makes the recorded call. A server error the processor keeps under the call's key would be answered
 * again to every repetition for a day, wedging the cart's payment: the recorded call moves to the
 * next key before the error goes up, and the next request makes it with that one. Repeating an
 * amendment or a cancellation with another key is safe; a creation repeated after one that did
 * create an intent (and then failed) leaves that first intent unconfirmed, holding nothing, its
 * client secret never given out.
 */
async function executeRecorded(deps: AppDeps, cartId: string, pending: PendingIntentOperation): Promise<ProcessorIntent | null> {
  try {
    return await execute(deps, pending);
  } catch (error) {
    if (keptUnderKey(error)) await retirePendingKey(deps, cartId, pending);
    throw error;
  }
}

async function retirePendingKey(deps: AppDeps, cartId: string, pending: PendingIntentOperation): Promise<void> {
  await deps.database.db
    .update(paymentSessions)
    .set({ pending: { ...pending, idempotencyKey: nextTryKey(pending.idempotencyKey) }, updatedAt: deps.now() })
    .where(and(eq(paymentSessions.cartId, cartId), sql`${paymentSessions.pending}->>'idempotencyKey' = ${pending.idempotencyKey}`));
}

/** Makes the recorded call. An intent that vanished answers null; one that moved on answers its current state. */
async function execute(deps: AppDeps, pending: PendingIntentOperation): Promise<ProcessorIntent | null> {
  try {
    switch (pending.op) {
      case "create":
        return await processorCall(() => deps.payments.createOrUpdateIntent({ intentId: null, terms: pending.terms, idempotencyKey: pending.idempotencyKey }));
      case "update":
        return await processorCall(() => deps.payments.createOrUpdateIntent({ intentId: pending.intentId, terms: pending.terms, idempotencyKey: pending.idempotencyKey }));
      case "cancel":
        return await processorCall(() => deps.payments.cancelIntent({ intentId: pending.intentId, idempotencyKey: pending.idempotencyKey }));
    }
  } catch (error) {
    if (!isPaymentProcessorError(error) || pending.op === "create") throw error;
    if (error.kind === "not_found") return null;
    // E.g. the customer confirmed the intent while we were amending it: record what it is now.
    if (error.kind === "invalid_state") return retrieveOrNull(deps, pending.intentId);
    throw error;
  }
}

async function readSession(db: Db, cartId: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cartId));
  return row;
}

/** Records the call about to be made. False when the session changed since it was read at `expectedVersion`. */
async function recordPending(deps: AppDeps, cartId: string, expectedVersion: number | null, pending: PendingIntentOperation): Promise<boolean> {
  const { db } = deps.database;
  const now = deps.now();
  const processor = deps.payments.name;
  if (expectedVersion === null) {
    const inserted = await db
      .insert(paymentSessions)
      .values({ cartId, processor, pending, version: 1, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ cartId: paymentSessions.cartId });
    return inserted.length === 1;
  }
  const updated = await db
    .update(paymentSessions)
    .set({ pending, version: expectedVersion + 1, updatedAt: now, ...(pending.op === "create" ? { processor } : {}) })
    .where(and(eq(paymentSessions.cartId, cartId), eq(paymentSessions.version, expectedVersion), sql`${paymentSessions.pending} is null`))
    .returning({ cartId: paymentSessions.cartId });
  return updated.length === 1;
}

/** Records what the processor answered and clears the pending call, unless another request already did. */
async function recordResult(deps: AppDeps, cartId: string, pending: PendingIntentOperation, intent: ProcessorIntent | null): Promise<void> {
  const carried = intent
    ? { intentId: intent.id, amountMinor: intent.amountMinor, currency: intent.currency, quoteFingerprint: intent.metadata.quoteFingerprint ?? null }
    : { intentId: null, amountMinor: null, currency: null, quoteFingerprint: null };
  await deps.database.db
    .update(paymentSessions)
    .set({ ...carried, pending: null, version: sql`${paymentSessions.version} + 1`, updatedAt: deps.now() })
    .where(and(eq(paymentSessions.cartId, cartId), sql`${paymentSessions.pending}->>'idempotencyKey' = ${pending.idempotencyKey}`));
}
