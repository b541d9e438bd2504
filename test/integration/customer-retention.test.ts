import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSessions, devOutboxMessages, otpChallenges, otpFailures } from "../../db/schema";
import { runJob } from "../../server/jobs/run";
import { bearer, challenge, freshEmail, signIn, verifyCode } from "../customer-helpers";
import { createTestApp, HARBOR, idemKey, type TestApp } from "../harness";

/** The prune-sign-in job: what sign-in no longer needs goes, what it still needs stays. */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const rows = async () => {
  const db = app.deps.database.db;
  const [challenges] = await db.select({ n: count() }).from(otpChallenges);
  const [failures] = await db.select({ n: count() }).from(otpFailures);
  const [messages] = await db.select({ n: count() }).from(devOutboxMessages);
  const [sessions] = await db.select({ n: count() }).from(customerSessions);
  return { challenges: challenges?.n ?? 0, failures: failures?.n ?? 0, messages: messages?.n ?? 0, sessions: sessions?.n ?? 0 };
};

describe("prune-sign-in", () => {
  it("deletes day-old codes, wrong-code records and outbox messages, and ended sessions; keeps live sessions", async () => {
    const signedOut = await signIn(app);
    expect((await app.call("DELETE", "/customer/logout", { headers: { ...bearer(signedOut.token), "Idempotency-Key": idemKey() } })).status).toBe(200);
    const email = freshEmail("prune");
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const wrong = otp === "000000" ? "111111" : "000000";
    expect((await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp: wrong })).status).toBe(401);

    const before = await rows();
    expect(before.challenges).toBeGreaterThanOrEqual(2);
    const first = await runJob(app.deps, "prune-sign-in");
    expect(first.complete).toBe(true);
    expect(first.details.sessions).toBe(1);
    expect(first.details.challenges).toBe(0);

    app.clock.now = new Date(app.clock.now.getTime() + 25 * 3_600_000);
    const live = await signIn(app);
    const report = await runJob(app.deps, "prune-sign-in");
    expect(report.details.challenges).toBe(before.challenges);
    expect(report.details.outboxMessages).toBe(before.messages);
    expect(report.details.failures).toBe(before.failures);
    const after = await rows();
    expect(after.sessions).toBe(1);
    expect(await app.deps.database.db.select().from(customerSessions).where(eq(customerSessions.customerId, live.customer.id))).toHaveLength(1);
    expect((await app.call("GET", "/customer", { headers: bearer(live.token) })).status).toBe(200);
    expect((await runJob(app.deps, "prune-sign-in")).processed).toBe(0);
  });
});
