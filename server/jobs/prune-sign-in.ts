import { sql } from "drizzle-orm";
import { customerSessions, devOutboxMessages, otpChallenges, otpFailures } from "../../db/schema";
import { untilDone } from "./batches";
import type { Job } from "./types";

/** Sign-in records are needed for an hour at most (the per-identifier windows); a day is kept for support. */
const KEEP_MS = 24 * 3_600_000;

/**
 * Deletes what customer sign-in no longer needs: one-time code challenges and wrong-code records
 * older than a day (codes live OTP_TTL_MINUTES, the per-identifier limits look back one hour),
 * development outbox messages older than a day, and sessions that ended (signed out or expired: a
 * token whose session row is gone is refused just the same). Batches are claimed with SKIP LOCKED,
 * so instances pruning at once delete different rows.
 */
export const pruneSignIn: Job = async ({ deps, batchSize, deadline }) => {
  const { db } = deps.database;
  const counts = { challenges: 0, failures: 0, outboxMessages: 0, sessions: 0 };
  const result = await untilDone(batchSize, deadline, async () => {
    const now = deps.now().toISOString();
    const before = new Date(deps.now().getTime() - KEEP_MS).toISOString();
    const challenges = await db
      .delete(otpChallenges)
      .where(sql`${otpChallenges.id} in (select id from otp_challenges where created_at <= ${before}::timestamptz limit ${batchSize} for update skip locked)`)
      .returning({ id: otpChallenges.id });
    const failures = await db
      .delete(otpFailures)
      .where(sql`${otpFailures.id} in (select id from otp_failures where failed_at <= ${before}::timestamptz limit ${batchSize} for update skip locked)`)
      .returning({ id: otpFailures.id });
    const outboxMessages = await db
      .delete(devOutboxMessages)
      .where(sql`${devOutboxMessages.id} in (select id from dev_outbox_messages where created_at <= ${before}::timestamptz limit ${batchSize} for update skip locked)`)
      .returning({ id: devOutboxMessages.id });
    const sessions = await db
      .delete(customerSessions)
      .where(
        sql`${customerSessions.id} in (select id from customer_sessions where revoked_at is not null or expires_at <= ${now}::timestamptz limit ${batchSize} for update skip locked)`,
      )
      .returning({ id: customerSessions.id });
    counts.challenges += challenges.length;
    counts.failures += failures.length;
    counts.outboxMessages += outboxMessages.length;
    counts.sessions += sessions.length;
    return challenges.length + failures.length + outboxMessages.length + sessions.length;
  });
  return { ...result, details: counts };
};
