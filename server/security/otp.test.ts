import { describe, expect, it } from "vitest";
import { identifierKey, newOtpCode, otpCodeHash, otpCodeMatches } from "./otp";

const secret = "a-test-secret-that-is-long-enough-000000";

describe("one-time codes", () => {
  it("are 6 digits", () => {
    const codes = Array.from({ length: 200 }, newOtpCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it("are stored as a keyed hash bound to the challenge", () => {
    const hash = otpCodeHash(secret, "otp_1", "123456");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(otpCodeMatches(secret, "otp_1", "123456", hash)).toBe(true);
    expect(otpCodeMatches(secret, "otp_1", "123457", hash)).toBe(false);
    expect(otpCodeMatches(secret, "otp_2", "123456", hash)).toBe(false);
    expect(otpCodeMatches("another-secret-that-is-long-enough-1111", "otp_1", "123456", hash)).toBe(false);
  });

  it("key identifiers without revealing them", () => {
    const key = identifierKey(secret, "ada@example.com");
    expect(key).not.toContain("ada");
    expect(identifierKey(secret, "ada@example.com")).toBe(key);
    expect(identifierKey(secret, "bob@example.com")).not.toBe(key);
  });
});
