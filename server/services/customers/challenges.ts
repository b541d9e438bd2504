import { createHash } from "node:crypto";
import { and, count, eq, gt, isNull, min, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { queryRows } from "../../../db/rows";
import { otpChallenges, otpFailures, type OtpChallengeStatus, type OtpPurpose } from "../../../db/schema";
import type { SignInIdentifier } from "../../domain/identifiers";
import { AppError, validationError } from "../../errors";
import { identifierKey, newOtpCode, otpCodeHash, otpCodeMatches } from "../../security/otp";
import { newId } from "../../security/tokens";
import type { RequestContext } from "../../app/request-context";
import { codeDeliveryUnavailable } from "../../integrations/otp-delivery";

type ChallengeRow = typeof otpChallenges.$inferSelect;

const HOUR_MS = 3_600_000;

export type ChallengeSubject = {
  merchant: { id: string; displayName: string };
  purpose: OtpPurpose;
  identifier: SignInIdentifier;
  /** The signed-in customer asking (phone verification); null for sign-in. */
  customerId: string | null;
  /** Which request body field carries the identifier, for error messages. */
  field: string;
};

/** 400 before anything is stored when the configured delivery cannot reach this kind of identifier. */
export function requireDeliverable(ctx: RequestContext, identifier: SignInIdentifier, field: string): void {
  if (ctx.deps.otpDelivery.name === "disabled") throw codeDeliveryUnavailable();
  if (ctx.deps.otpDelivery.channels.includes(identifier.channel)) return;
  const message =
    identifier.channel === "sms"
      ? "This service cannot send text messages (no SMS transport is configured): use an e-mail address"
      : "This service cannot send e-mail";
  throw validationError(message, [{ path: field, message: `${identifier.channel} delivery is not available` }]);
}

function tooMany(message: string, oldest: Date | null, now: Date, limit: number): AppError {
  const resetAt = new Date((oldest ?? now).getTime() + HOUR_MS);
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return new AppError("RATE_LIMITED", message, { headers: { "Retry-After": String(retryAfter) }, details: { limit, resetAt: resetAt.toISOString() } });
}

function lockId(text: string): bigint {
  return createHash("sha256").update(text).digest().readBigInt64BE(0);
}

/**
 * Creates a challenge and sends its code, inside the caller's transaction (the idempotent write).
 * Serialised per identifier by an advisory lock, so the per-identifier limit and "a new code
 * replaces the previous one" hold under concurrency and across instances. The same work is done
 * whether or not a customer with this identifier exists: the answer, the status and the time taken
 * reveal nothing about it.
 */
export async function issueChallenge(tx: Tx, ctx: RequestContext, subject: ChallengeSubject): Promise<{ methodId: string; delivery: SignInIdentifier["channel"] }> {
  const { env, otpDelivery } = ctx.deps;
  requireDeliverable(ctx, subject.identifier, subject.field);
  const now = ctx.deps.now();
  const key = identifierKey(env.secret, subject.identifier.value);
  await queryRows(tx, sql`select pg_advisory_xact_lock(${lockId(`otp|${key}`)})`);

  const [recent] = await tx
    .select({ n: count(), oldest: min(otpChallenges.createdAt) })
    .from(otpChallenges)
    .where(and(eq(otpChallenges.identifierKey, key), gt(otpChallenges.createdAt, new Date(now.getTime() - HOUR_MS))));
  if ((recent?.n ?? 0) >= env.OTP_MAX_CHALLENGES_PER_HOUR) {
    throw tooMany("Too many codes were requested for this identifier; try again later", recent?.oldest ?? null, now, env.OTP_MAX_CHALLENGES_PER_HOUR);
  }

  await tx
    .update(otpChallenges)
    .set({ status: "superseded" satisfies OtpChallengeStatus })
    .where(
      and(
        eq(otpChallenges.merchantId, subject.merchant.id),
        eq(otpChallenges.purpose, subject.purpose),
        eq(otpChallenges.identifierKey, key),
        eq(otpChallenges.status, "pending"),
        // A phone-verification code is the requesting customer's alone: another customer asking for
        // the same number must not cancel it (whoever proves a code first owns the number; the other
        // then gets 409). Sign-in codes have no customer and replace one another, as before.
        subject.customerId === null ? isNull(otpChallenges.customerId) : eq(otpChallenges.customerId, subject.customerId),
      ),
    );
  const id = newId("otp");
  const code = newOtpCode();
  await tx.insert(otpChallenges).values({
    id,
    merchantId: subject.merchant.id,
    purpose: subject.purpose,
    channel: subject.identifier.channel,
    identifierKey: key,
    customerId: subject.customerId,
    codeHash: otpCodeHash(env.secret, id, code),
    attempts: 0,
    status: "pending",
    createdAt: now,
    expiresAt: new Date(now.getTime() + env.OTP_TTL_MINUTES * 60_000),
  });
  const what = subject.purpose === "login" ? "sign-in" : "phone verification";
  await otpDelivery.send(
    {
      channel: subject.identifier.channel,
      to: subject.identifier.value,
      subject: `Your ${subject.merchant.displayName} ${what} code`,
      text: `Your ${subject.merchant.displayName} ${what} code is ${code}. It expires in ${env.OTP_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this message.`,
    },
    { tx, sentAt: now },
  );
  return { methodId: id, delivery: subject.identifier.channel };
}

export type ChallengeProof = Omit<ChallengeSubject, "merchant" | "field"> & { merchantId: string; methodId: string; code: string };

/**
 * Checks a presented code in a transaction of its own, committing its bookkeeping whatever the
 * outcome (a wrong guess must count even though the request fails). Serialised per identifier by the
 * same advisory lock as issueChallenge, so the count and the failure it adds are one atomic step:
 * racing guesses, at one merchant or several, never get more than OTP_MAX_FAILURES_PER_HOUR checks.
 *
 * 1. The identifier's wrong codes in the last hour (any challenge, any IP) must be under
 *    OTP_MAX_FAILURES_PER_HOUR, else 429.
 * 2. One attempt is reserved with a single conditional UPDATE (pending, unexpired, attempts under
 *    OTP_MAX_ATTEMPTS). None left, expired, used or replaced: 401, and even the right code fails.
 * 3. Merchant, purpose, identifier, customer and code (HMAC, constant-time) must all match; a
 *    mismatch is 401, and counts against the identifier only when the methodId names a challenge
 *    issued to that identifier and the code is not that challenge's (the right code of a used one is
 *    no guess: see guessedAt). A made-up methodId (or someone else's) cannot lock a victim out: no
 *    code exists for it, so guessing cannot succeed, and the per-address rate limit bounds the volume.
 *
 * A match returns the challenge, still pending: the caller marks it used (`markUsed`) in the
 * transaction that acts on it, so it works once.
 */
export async function checkChallenge(ctx: RequestContext, proof: ChallengeProof): Promise<ChallengeRow> {
  const { env, database, now: clock } = ctx.deps;
  const now = clock();
  const key = identifierKey(env.secret, proof.identifier.value);

  const outcome = await database.db.transaction(async (tx): Promise<CheckOutcome> => {
    await queryRows(tx, sql`select pg_advisory_xact_lock(${lockId(`otp|${key}`)})`);
    const [failures] = await tx
      .select({ n: count(), oldest: min(otpFailures.failedAt) })
      .from(otpFailures)
      .where(and(eq(otpFailures.identifierKey, key), gt(otpFailures.failedAt, new Date(now.getTime() - HOUR_MS))));
    if ((failures?.n ?? 0) >= env.OTP_MAX_FAILURES_PER_HOUR) return { kind: "limited", oldest: failures?.oldest ?? null };

    const [challenge] = await tx
      .update(otpChallenges)
      .set({ attempts: sql`${otpChallenges.attempts} + 1` })
      .where(
        and(
          eq(otpChallenges.id, proof.methodId),
          eq(otpChallenges.status, "pending"),
          gt(otpChallenges.expiresAt, now),
          sql`${otpChallenges.attempts} < ${env.OTP_MAX_ATTEMPTS}`,
        ),
      )
      .returning();

    const matches =
      challenge !== undefined &&
      challenge.merchantId === proof.merchantId &&
      challenge.purpose === proof.purpose &&
      challenge.identifierKey === key &&
      (proof.customerId === null || challenge.customerId === proof.customerId) &&
      otpCodeMatches(env.secret, challenge.id, proof.code, challenge.codeHash);
    if (matches) return { kind: "match", challenge };

    if (await guessedAt(tx, env.secret, proof, key, challenge)) {
      await tx.insert(otpFailures).values({ id: newId("otpf"), identifierKey: key, challengeId: proof.methodId, failedAt: now });
    }
    return { kind: "mismatch", challenge };
  });

  if (outcome.kind === "match") return outcome.challenge;
  if (outcome.kind === "limited") throw tooMany("Too many wrong codes for this identifier; try again later", outcome.oldest, now, env.OTP_MAX_FAILURES_PER_HOUR);
  if (!outcome.challenge) throw deadChallenge();
  const attemptsRemaining = Math.max(0, env.OTP_MAX_ATTEMPTS - outcome.challenge.attempts);
  throw new AppError("UNAUTHORIZED", attemptsRemaining > 0 ? "The code is not correct" : "The code is not correct, and no attempts are left: request a new code", {
    details: { attemptsRemaining },
  });
}

type CheckOutcome = { kind: "limited"; oldest: Date | null } | { kind: "match"; challenge: ChallengeRow } | { kind: "mismatch"; challenge: ChallengeRow | undefined };

/**
 * Whether a refused proof was a guess at a code issued to this identifier, which counts against it:
 * `methodId` names such a challenge (live or not), and the code is not its code. The right code for
 * a challenge no longer live (used, expired, replaced) is no guess: it is what overlapping retries of
 * one successful sign-in send once the first has used the code, and it must not lock the customer out.
 */
async function guessedAt(tx: Tx, secret: string, proof: ChallengeProof, key: string, reserved: ChallengeRow | undefined): Promise<boolean> {
  if (reserved) return reserved.identifierKey === key;
  const [row] = await tx.select({ identifierKey: otpChallenges.identifierKey, codeHash: otpChallenges.codeHash }).from(otpChallenges).where(eq(otpChallenges.id, proof.methodId));
  return row?.identifierKey === key && !otpCodeMatches(secret, proof.methodId, proof.code, row.codeHash);
}

function deadChallenge(): AppError {
  return new AppError(
    "UNAUTHORIZED",
    "This code can no longer be used (it expired, was already used, was replaced by a newer code, or had too many wrong attempts): request a new code",
  );
}

/** Marks a checked challenge used, inside the transaction that acts on it; a concurrent use already took it: 401. */
export async function markUsed(tx: Tx, challengeId: string, now: Date): Promise<void> {
  const [used] = await tx
    .update(otpChallenges)
    .set({ status: "used" satisfies OtpChallengeStatus, usedAt: now })
    .where(and(eq(otpChallenges.id, challengeId), eq(otpChallenges.status, "pending")))
    .returning({ id: otpChallenges.id });
  if (!used) throw deadChallenge();
}
