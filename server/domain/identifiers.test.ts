import { describe, expect, it } from "vitest";
import { countryCodeOf, normaliseEmail, normalisePhoneNumber, parseSignInIdentifier } from "./identifiers";

describe("sign-in identifiers", () => {
  it("reads an address with @ as e-mail, trimmed and lower-cased", () => {
    expect(parseSignInIdentifier("  Ada.Lovelace@Example.COM ")).toEqual({ channel: "email", value: "ada.lovelace@example.com" });
    expect(parseSignInIdentifier("not-an-address@")).toBeUndefined();
    expect(normaliseEmail(`${"a".repeat(250)}@example.com`)).toBeUndefined();
  });

  it("reads anything else as a phone number in E.164, in the merchant's country when written without a country code", () => {
    expect(parseSignInIdentifier("+1 (617) 555-0142")).toEqual({ channel: "sms", value: "+16175550142" });
    expect(parseSignInIdentifier("617-555-0142", "US")).toEqual({ channel: "sms", value: "+16175550142" });
    expect(parseSignInIdentifier("050 123 4567", "AE")).toEqual({ channel: "sms", value: "+971501234567" });
    expect(parseSignInIdentifier("617-555-0142")).toBeUndefined();
    expect(normalisePhoneNumber("+1 555")).toBeUndefined();
    expect(normalisePhoneNumber("call me maybe")).toBeUndefined();
    expect(normalisePhoneNumber("+1617555014212345678901234567890123")).toBeUndefined();
  });

  it("maps the service's countries to ISO codes", () => {
    expect(countryCodeOf("United Arab Emirates")).toBe("AE");
    expect(countryCodeOf("United Kingdom")).toBe("GB");
    expect(countryCodeOf("Atlantis")).toBeUndefined();
  });
});
