import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otpChallenges } from "../../db/schema";
import { parseEnv } from "../../server/env";
import { bearer, freshEmail, freshPhone, readOutbox, requestCode, verifyCode, type SessionBody } from "../customer-helpers";
import { createTestApp, HARBOR, idemKey, type TestApp } from "../harness";
import { startFakeSmtp, type FakeSmtp } from "../smtp-fake";

/**
 * One-time codes over SMTP (SMTP_URL, EMAIL_FROM): the real nodemailer transport against a local
 * SMTP server. With a real transport configured the development outbox does not exist, and phone
 * numbers (no SMS transport) are refused up front.
 */
let smtp: FakeSmtp;
let app: TestApp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  app = await createTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: "Harbor Kitchen <codes@harbor.example>" } });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

function codeIn(data: string): string {
  const code = /is (\d{6})\./.exec(data.replace(/=\r\n/g, ""))?.[1];
  if (!code) throw new Error(`no code in ${data}`);
  return code;
}

describe("SMTP delivery", () => {
  it("requires EMAIL_FROM with SMTP_URL", () => {
    expect(() => parseEnv({ NODE_ENV: "test", SMTP_URL: "smtp://127.0.0.1:2525" })).toThrow(/EMAIL_FROM/);
    expect(() => parseEnv({ NODE_ENV: "test", SMTP_URL: "http://mail.example", EMAIL_FROM: "a@b.c" })).toThrow(/SMTP_URL/);
  });

  it("e-mails the code, which signs the customer in", async () => {
    const email = freshEmail("smtp");
    const login = await requestCode(app, HARBOR.merchantSlug, email);
    expect(login.status, login.text).toBe(200);
    expect((login.body as { delivery: string }).delivery).toBe("email");
    const mail = smtp.messages.find((message) => message.to.includes(email));
    expect(mail?.from).toBe("codes@harbor.example");
    expect(mail?.data).toMatch(/^Subject: Your Harbor Kitchen sign-in code$/m);
    const verified = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId: (login.body as { methodId: string }).methodId, otp: codeIn(mail?.data ?? "") });
    expect(verified.status, verified.text).toBe(200);
    expect((verified.body as SessionBody).customer.customerEmail).toBe(email);
  });

  it("has no development outbox", async () => {
    const outbox = await readOutbox(app);
    expect(outbox.status).toBe(404);
  });

  it("refuses sign-in and verification by phone clearly (400), storing no challenge", async () => {
    const phone = freshPhone();
    const before = await challengeCount();
    const login = await requestCode(app, HARBOR.merchantSlug, phone);
    expect(login.status).toBe(400);
    expect((login.body as { message: string }).message).toMatch(/cannot send text messages/);
    expect(JSON.stringify((login.body as { details: unknown }).details)).toMatch(/identifierString/);

    const email = freshEmail("smtp-phone");
    const login2 = await requestCode(app, HARBOR.merchantSlug, email);
    const mail = smtp.messages.find((message) => message.to.includes(email));
    const { token } = (await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId: (login2.body as { methodId: string }).methodId, otp: codeIn(mail?.data ?? "") })).body as SessionBody;
    const verification = await app.call("POST", "/customer/phone-verification", { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { phoneNumber: phone } });
    expect(verification.status).toBe(400);
    // Only the e-mail sign-in's challenge was stored.
    expect(await challengeCount()).toBe(before + 1);
  });

  it("answers 503 when the mail server cannot be reached, and stores no challenge", async () => {
    const down = await startFakeSmtp();
    await down.close();
    // The same database, with a transport pointing at a port nothing listens on any more.
    const offline = await createTestApp({ env: { SMTP_URL: down.url, EMAIL_FROM: "codes@harbor.example" }, database: app.deps.database });
    try {
      const before = await challengeCount();
      const response = await requestCode(offline, HARBOR.merchantSlug, freshEmail("offline"));
      expect(response.status).toBe(503);
      expect((response.body as { code: string }).code).toBe("DEPENDENCY_UNAVAILABLE");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await challengeCount()).toBe(before);
    } finally {
      await offline.close();
    }
  });
});

async function challengeCount(): Promise<number> {
  const [row] = await app.deps.database.db.select({ n: count() }).from(otpChallenges);
  return row?.n ?? 0;
}
