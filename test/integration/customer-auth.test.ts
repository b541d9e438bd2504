import { encode } from "@auth/core/jwt";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, otpChallenges } from "../../db/schema";
import { CUSTOMER_TOKEN_AUDIENCE, CUSTOMER_TOKEN_SALT, mintCustomerToken, readCustomerToken } from "../../server/security/customer-token";
import { bearer, challenge, freshEmail, freshPhone, latestCode, readOutbox, requestCode, signIn, verifyCode, type SessionBody } from "../customer-helpers";
import { createTestApp, DUNE, HARBOR, idemKey, type TestApp } from "../harness";

/**
 * Sign-in by one-time code over REST, the way the storefront does it (codes read from the
 * development outbox), and the abuse cases: guessing, expiry, reuse, replay, other merchants,
 * logout, and every kind of token that must not be accepted.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const profile = (token: string) => app.call("GET", "/customer", { headers: bearer(token) });

describe("sign-in end to end", () => {
  it("sends a code to the outbox, proves it, and answers a token that reads the profile", async () => {
    const email = freshEmail("end-to-end");
    const login = await requestCode(app, HARBOR.merchantSlug, `  ${email.toUpperCase()} `);
    expect(login.status, login.text).toBe(200);
    const { methodId, delivery } = login.body as { methodId: string; delivery: string };
    expect(delivery).toBe("email");
    expect(login.headers.get("cache-control")).toBe("private, no-store");

    const outbox = await readOutbox(app);
    expect(outbox.status).toBe(200);
    const message = outbox.messages.find((candidate) => candidate.to === email);
    expect(message?.subject).toBe("Your Harbor Kitchen sign-in code");
    expect(message?.text).toMatch(/\b\d{6}\b/);
    expect(Object.keys(message ?? {}).sort()).toEqual(["createdAt", "subject", "text", "to"]);
    const otp = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1] ?? "";

    const verified = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp, customerName: "Ada", lastName: "Lovelace", phoneNumber: "(617) 555-0142" });
    expect(verified.status, verified.text).toBe(200);
    const session = verified.body as SessionBody;
    expect(session.customer.id).toMatch(/^cust_/);
    expect(session.customer).toEqual({
      id: session.customer.id,
      profilePicture: "",
      customerEmail: email,
      customerName: "Ada",
      lastName: "Lovelace",
      phoneNumber: "+16175550142",
      phoneNumberVerified: false,
    });
    expect(session.token.split(".")).toHaveLength(5);

    const read = await profile(session.token);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(session.customer);
    expect(read.headers.get("cache-control")).toBe("private, no-store");
  });

  it("finds the same customer on the next sign-in, and a different customer at another merchant", async () => {
    const email = freshEmail("two-merchants");
    const first = await signIn(app, HARBOR.merchantSlug, email);
    const again = await signIn(app, HARBOR.merchantSlug, email);
    const elsewhere = await signIn(app, DUNE.merchantSlug, email);
    expect(again.customer.id).toBe(first.customer.id);
    expect(elsewhere.customer.id).not.toBe(first.customer.id);
    expect(elsewhere.customer.customerEmail).toBe(email);
  });

  it("answers an unknown identifier exactly like a known one", async () => {
    const known = freshEmail("known");
    await signIn(app, HARBOR.merchantSlug, known);
    const unknown = freshEmail("unknown");
    const a = await requestCode(app, HARBOR.merchantSlug, known);
    const b = await requestCode(app, HARBOR.merchantSlug, unknown);
    expect([a.status, b.status]).toEqual([200, 200]);
    const shape = (body: unknown) => Object.fromEntries(Object.entries(body as Record<string, string>).map(([key, value]) => [key, key === "methodId" ? value.length : value]));
    expect(shape(a.body)).toEqual(shape(b.body));
    expect([...a.headers.keys()].filter((name) => name !== "x-request-id" && !name.startsWith("x-ratelimit"))).toEqual(
      [...b.headers.keys()].filter((name) => name !== "x-request-id" && !name.startsWith("x-ratelimit")),
    );
    expect((await readOutbox(app, unknown)).messages).toHaveLength(1);
  });

  it("signs in by phone number over SMS (outbox); the number is verified and is the identity", async () => {
    const phone = freshPhone();
    const login = await requestCode(app, HARBOR.merchantSlug, phone.replace("+1", "").replace(/(\d{3})(\d{3})(\d{4})/, "($1) $2-$3"));
    expect(login.status, login.text).toBe(200);
    expect((login.body as { delivery: string }).delivery).toBe("sms");
    const otp = await latestCode(app, phone);
    const verified = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: phone, methodId: (login.body as { methodId: string }).methodId, otp });
    expect(verified.status, verified.text).toBe(200);
    expect((verified.body as SessionBody).customer).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true, customerEmail: "" });
    const again = await signIn(app, HARBOR.merchantSlug, phone);
    expect(again.customer.id).toBe((verified.body as SessionBody).customer.id);
  });

  it("refuses identifiers that are neither an e-mail address nor a phone number, and unknown merchants", async () => {
    for (const identifierString of ["not an address", "a@b", "+1 555", "12"]) {
      const response = await requestCode(app, HARBOR.merchantSlug, identifierString);
      expect(response.status, identifierString).toBe(400);
    }
    expect((await requestCode(app, "no-such-merchant", freshEmail())).status).toBe(404);
  });

  it("replays an idempotent login without sending a second code", async () => {
    const email = freshEmail("replay");
    const key = idemKey();
    const first = await requestCode(app, HARBOR.merchantSlug, email, { key });
    const retry = await requestCode(app, HARBOR.merchantSlug, email, { key });
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await readOutbox(app, email)).messages).toHaveLength(1);
    // The stored answer holds no code.
    expect(first.text).not.toMatch(/\b\d{6}\b/);
  });
  it("replays a verify-otp, session token included, only to the identical request: the proof that earned it", async () => {
    const email = freshEmail("verify-replay");
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const body = { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp };
    const key = idemKey();
    const first = await verifyCode(app, body, { key });
    expect(first.status, first.text).toBe(200);
    const retry = await verifyCode(app, body, { key });
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.text).toBe(first.text);
    // The same key without the code, or with another, replays nothing.
    const wrongCode = otp === "000000" ? "111111" : "000000";
    const guessed = await verifyCode(app, { ...body, otp: wrongCode }, { key });
    expect(guessed.status, guessed.text).toBe(409);
    expect(guessed.body).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(guessed.text).not.toContain((first.body as SessionBody).token);
  });
});

describe("one-time code abuse", () => {
  async function fresh() {
    const email = freshEmail("abuse");
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const wrong = otp === "000000" ? "111111" : "000000";
    const attempt = (code: string, extra: Record<string, unknown> = {}) => verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp: code, ...extra });
    return { email, methodId, otp, wrong, attempt };
  }

  it("allows 5 wrong codes, then the challenge is dead even for the right code", async () => {
    const { otp, wrong, attempt } = await fresh();
    for (let remaining = 4; remaining >= 0; remaining--) {
      const response = await attempt(wrong);
      expect(response.status).toBe(401);
      expect((response.body as { code: string; details?: { attemptsRemaining?: number } }).details?.attemptsRemaining).toBe(remaining);
    }
    const sixth = await attempt(otp);
    expect(sixth.status).toBe(401);
    expect((sixth.body as { message: string }).message).toMatch(/request a new code/);
  });

  it("accepts the right code after fewer than 5 wrong ones", async () => {
    const { otp, wrong, attempt } = await fresh();
    for (let i = 0; i < 4; i++) expect((await attempt(wrong)).status).toBe(401);
    expect((await attempt(otp)).status).toBe(200);
  });

  it("refuses an expired code", async () => {
    const { otp, attempt } = await fresh();
    app.clock.now = new Date(app.clock.now.getTime() + (app.env.OTP_TTL_MINUTES * 60 + 1) * 1000);
    const response = await attempt(otp);
    expect(response.status).toBe(401);
    expect((response.body as { message: string }).message).toMatch(/expired/);
  });

  it("refuses a code that was already used (with a new Idempotency-Key)", async () => {
    const { otp, attempt } = await fresh();
    expect((await attempt(otp)).status).toBe(200);
    expect((await attempt(otp)).status).toBe(401);
  });

  it("refuses the previous code once a new one was requested", async () => {
    const email = freshEmail("superseded");
    const first = await challenge(app, HARBOR.merchantSlug, email);
    const second = await challenge(app, HARBOR.merchantSlug, email);
    const old = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, ...first });
    expect(old.status).toBe(401);
    expect((await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, ...second })).status).toBe(200);
  });

  it("refuses a code at another merchant, or for another identifier", async () => {
    const { email, methodId, otp, attempt } = await fresh();
    expect((await verifyCode(app, { merchantSlug: DUNE.merchantSlug, identifierString: email, methodId, otp })).status).toBe(401);
    expect((await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: freshEmail("other"), methodId, otp })).status).toBe(401);
    // Those were attempts on the challenge too: 3 left for the real one.
    expect((await attempt(otp)).status).toBe(200);
  });

  it("stores only a keyed hash of the code", async () => {
    const { methodId, otp } = await fresh();
    const [row] = await app.deps.database.db.select().from(otpChallenges).where(eq(otpChallenges.id, methodId));
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(otp);
  });

  it("limits codes per identifier per hour across IPs", async () => {
    const email = freshEmail("flood");
    for (let i = 0; i < app.env.OTP_MAX_CHALLENGES_PER_HOUR; i++) {
      expect((await requestCode(app, HARBOR.merchantSlug, email, { ip: `198.51.100.${i + 1}` })).status).toBe(200);
    }
    const refused = await requestCode(app, HARBOR.merchantSlug, email, { ip: "198.51.100.200" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await readOutbox(app, email)).messages).toHaveLength(app.env.OTP_MAX_CHALLENGES_PER_HOUR);
    // A different identifier is not affected; an hour later this one works again.
    expect((await requestCode(app, HARBOR.merchantSlug, freshEmail("flood-other"))).status).toBe(200);
    app.clock.now = new Date(app.clock.now.getTime() + 3_600_000 + 1000);
    expect((await requestCode(app, HARBOR.merchantSlug, email)).status).toBe(200);
  });

  it("limits wrong codes per identifier per hour across challenges and IPs", async () => {
    const email = freshEmail("guesser");
    let failures = 0;
    while (failures < app.env.OTP_MAX_FAILURES_PER_HOUR) {
      const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
      const wrong = otp === "000000" ? "111111" : "000000";
      for (let i = 0; i < app.env.OTP_MAX_ATTEMPTS && failures < app.env.OTP_MAX_FAILURES_PER_HOUR; i++, failures++) {
        const response = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp: wrong }, { ip: `192.0.2.${failures + 1}` });
        expect(response.status).toBe(401);
      }
    }
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, email);
    const blocked = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId, otp }, { ip: "192.0.2.250" });
    expect(blocked.status).toBe(429);
  });

  it("does not count codes sent against a made-up or someone else's methodId: nobody can lock a victim out that way", async () => {
    const victim = freshEmail("victim");
    const attacker = await challenge(app, HARBOR.merchantSlug, freshEmail("attacker"));
    for (let i = 0; i < app.env.OTP_MAX_FAILURES_PER_HOUR * 2; i++) {
      const methodId = i % 2 === 0 ? `otp_madeup${String(i).padStart(20, "0")}` : attacker.methodId;
      const refused = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: victim, methodId, otp: "123456" }, { ip: `198.51.100.${i + 1}` });
      expect(refused.status, refused.text).toBe(401);
    }
    const { methodId, otp } = await challenge(app, HARBOR.merchantSlug, victim);
    const signedIn = await verifyCode(app, { merchantSlug: HARBOR.merchantSlug, identifierString: victim, methodId, otp });
    expect(signedIn.status, signedIn.text).toBe(200);
  });
});

describe("tokens", () => {
  it("logout revokes the session at once; a retry of the logout replays", async () => {
    const { token } = await signIn(app);
    expect((await profile(token)).status).toBe(200);
    const key = idemKey();
    const out = await app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": key } });
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ loggedOut: true });
    expect((await profile(token)).status).toBe(401);
    const retry = await app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": key } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const another = await app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });
    expect(another.status).toBe(401);
  });

  it("expires with the session (CUSTOMER_SESSION_TTL_HOURS)", async () => {
    const { token } = await signIn(app);
    app.clock.now = new Date(app.clock.now.getTime() + app.env.CUSTOMER_SESSION_TTL_HOURS * 3_600_000 + 1000);
    expect((await profile(token)).status).toBe(401);
  });

  it("refuses forged, alg:none, expired, padded, wrong-audience, other-salt and other-kind tokens", async () => {
    // The tokens below expire by the real clock; the service reads the time from the test's.
    app.clock.now = new Date();
    const signedIn = await signIn(app);
    const header = JSON.parse(Buffer.from(signedIn.token.split(".")[0] ?? "", "base64url").toString()) as Record<string, unknown>;
    expect(header).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" });
    const [row] = await app.deps.database.db.select().from(customers).where(eq(customers.id, signedIn.customer.id));
    // The session id of the real token, read through the service's own decoder.
    const real = { sub: signedIn.customer.id, mid: row?.merchantId ?? "", sid: (await readCustomerToken(app.env.secret, signedIn.token, app.clock.now))?.sid ?? "" };
    expect(real.sid).toMatch(/^ses_/);

    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const tokens = {
      forged: await mintCustomerToken("another-secret-of-at-least-thirty-two-characters", real, 3600),
      algNone: `${segment({ alg: "none", typ: "JWT" })}.${segment({ ...real, aud: CUSTOMER_TOKEN_AUDIENCE, exp: 9_999_999_999 })}.`,
      expired: await encode({ secret: app.env.secret, salt: CUSTOMER_TOKEN_SALT, maxAge: -120, token: { ...real, aud: CUSTOMER_TOKEN_AUDIENCE } }),
      // Within the 15 s of clock skew Auth.js's decoder allows: still expired here.
      expiredFiveSecondsAgo: await encode({ secret: app.env.secret, salt: CUSTOMER_TOKEN_SALT, maxAge: -5, token: { ...real, aud: CUSTOMER_TOKEN_AUDIENCE } }),
      padded: `${signedIn.token}=`,
      doublyPadded: `${signedIn.token}==`,
      wrongAudience: await encode({ secret: app.env.secret, salt: CUSTOMER_TOKEN_SALT, token: { ...real, aud: "storefront:admin" } }),
      otherSalt: await encode({ secret: app.env.secret, salt: "authjs.session-token", token: { ...real, aud: CUSTOMER_TOKEN_AUDIENCE } }),
      tampered: `${signedIn.token.slice(0, -4)}${signedIn.token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`,
      otherMerchant: await encode({ secret: app.env.secret, salt: CUSTOMER_TOKEN_SALT, token: { ...real, mid: "mer_someone_else", aud: CUSTOMER_TOKEN_AUDIENCE } }),
      cartToken: "ct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      receiptToken: "rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await profile(token);
      expect(response.status, name).toBe(401);
      expect((response.body as { code: string }).code, name).toBe("UNAUTHORIZED");
    }
    // The genuine token still works, and a re-encoded genuine token (same claims, same key) does too.
    expect((await profile(signedIn.token)).status).toBe(200);
    const reminted = await encode({ secret: app.env.secret, salt: CUSTOMER_TOKEN_SALT, token: { ...real, aud: CUSTOMER_TOKEN_AUDIENCE } });
    expect((await profile(reminted)).status).toBe(200);
  });

  it("accepts the scheme case-insensitively but nothing but a bearer token", async () => {
    const { token } = await signIn(app);
    expect((await app.call("GET", "/customer", { headers: { Authorization: `bearer ${token}` } })).status).toBe(200);
    expect((await app.call("GET", "/customer", { headers: { Authorization: token } })).status).toBe(401);
    expect((await app.call("GET", "/customer", { headers: { Authorization: `Bearer ${token} extra` } })).status).toBe(401);
  });
});
