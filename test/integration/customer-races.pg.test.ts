import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSessions, customers, otpChallenges, otpFailures } from "../../db/schema";
import { challenge, freshEmail, requestCode, verifyCode } from "../customer-helpers";
import { createTestApp, DUNE, HARBOR, type TestApp } from "../harness";

/**
 * One-time codes under concurrency, on real Postgres (PGlite serialises everything): attempts are
 * reserved atomically, a code is used once, and the per-identifier limit holds for parallel logins.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("one-time code races on real Postgres", () => {
  it("checks at most OTP_MAX_ATTEMPTS of many parallel guesses; the right code is dead afterwards", async () => {
    const email = freshEmail("parallel-guess");
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const wrong = Array.from({ length: 20 }, (_, i) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all(wrong.map((code, i) => verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp: code }, { ip: `192.0.2.${i + 1}` })));
    expect(results.every((result) => result.status === 401 || result.status === 429)).toBe(true);
    const [row] = await app.deps.database.db.select().from(otpChallenges).where(eq(otpChallenges.id, methodId));
    expect(row?.attempts).toBe(app.env.OTP_MAX_ATTEMPTS);
    expect((await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp })).status).not.toBe(200);
  });

  it("checks at most OTP_MAX_FAILURES_PER_HOUR of many parallel wrong codes for one identifier, across merchants", async () => {
    const email = freshEmail("parallel-two-merchants");
    const challenges: { methodId: string; otp: string }[] = [];
    for (let i = 0; i < 4; i++) challenges.push(await challenge(app, i % 2 === 0 ? HARBOR.merchantSlug : DUNE.merchantSlug, email));
    const guesses = Array.from({ length: 40 }, (_, i) => {
      const target = challenges[i % challenges.length] ?? { methodId: "", otp: "" };
      const merchantSlug = i % 2 === 0 ? HARBOR.merchantSlug : DUNE.merchantSlug;
      const wrong = target.otp === "000000" ? "111111" : "000000";
      return verifyCode(app, { merchantSlug, identifierString: email, methodId: target.methodId, otp: wrong }, { ip: `203.0.113.${i + 1}` });
    });
    const results = await Promise.all(guesses);
    expect(results.every((result) => result.status === 401 || result.status === 429)).toBe(true);
    const checked = results.filter((result) => result.status === 401).length;
    expect(checked).toBeLessThanOrEqual(app.env.OTP_MAX_FAILURES_PER_HOUR);
    const recorded = await app.deps.database.db.select().from(otpFailures).where(inArray(otpFailures.challengeId, challenges.map((entry) => entry.methodId)));
    expect(recorded.length).toBe(checked);
    expect(recorded.length).toBeLessThanOrEqual(app.env.OTP_MAX_FAILURES_PER_HOUR);
  });

  it("lets the right code sign in once when sent many times at once", async () => {
    const email = freshEmail("parallel-use");
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const results = await Promise.all(Array.from({ length: 4 }, () => verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status === 401)).toHaveLength(3);
    const owners = await app.deps.database.db.select().from(customers).where(and(eq(customers.merchantId, "mer_harbor_kitchen"), eq(customers.email, email)));
    expect(owners).toHaveLength(1);
    expect(await app.deps.database.db.select().from(customerSessions).where(eq(customerSessions.customerId, owners[0]?.id ?? ""))).toHaveLength(1);
  });

  it("holds the per-identifier limit and leaves one live code for parallel logins", async () => {
    const email = freshEmail("parallel-login");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => requestCode(app, HARBOR.merchantSlug, email, { ip: `198.51.100.${i + 1}` })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(app.env.OTP_MAX_CHALLENGES_PER_HOUR);
    expect(results.filter((result) => result.status === 429)).toHaveLength(12 - app.env.OTP_MAX_CHALLENGES_PER_HOUR);
    const pending = await app.deps.database.db.select().from(otpChallenges).where(eq(otpChallenges.status, "pending"));
    const mine = new Set(results.filter((result) => result.status === 200).map((result) => (result.body as { methodId: string }).methodId));
    expect(pending.filter((row) => mine.has(row.id))).toHaveLength(1);
  });
});
