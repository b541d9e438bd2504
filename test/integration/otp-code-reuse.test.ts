import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challenge, freshEmail, verifyCode } from "../customer-helpers";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/**
 * Overlapping retries of one successful sign-in (same code, the first one already used it) must not
 * count as wrong guesses: found locking a customer out for an hour (429 for a new, right code) after
 * a dozen retries of a correct verification. The right code of a used challenge is refused (401)
 * without counting; a wrong code still counts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { OTP_MAX_FAILURES_PER_HOUR: "3" } });
});
afterAll(async () => {
  await app.close();
});

describe("a used sign-in code presented again", () => {
  it("is refused without counting against the identifier, so a new code still works", async () => {
    const identifier = freshEmail("reuse");
    const first = await challenge(app, HARBOR.merchantSlug, identifier);
    const proof = { merchantSlug: HARBOR.merchantSlug, identifierString: identifier, ...first };
    expect((await verifyCode(app, proof)).status).toBe(200);
    // More re-sends of the used code than the hour's allowance of wrong codes.
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await verifyCode(app, proof)).status).toBe(401);
    const next = await challenge(app, HARBOR.merchantSlug, identifier);
    const again = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: identifier, ...next });
    expect(again.status, again.text).toBe(200);
  });

  it("still counts wrong codes: past the allowance even the right one is 429", async () => {
    const identifier = freshEmail("guess");
    const issued = await challenge(app, HARBOR.merchantSlug, identifier);
    const wrong = issued.otp === "000000" ? "111111" : "000000";
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: identifier, methodId: issued.methodId, otp: wrong })).status).toBe(401);
    }
    const right = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: identifier, ...issued });
    expect(right.status, right.text).toBe(429);
  });
});
