import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { z } from "zod";
import type { DeliveryCountry } from "./delivery";

/**
 * What a customer signs in with: an e-mail address (codes go by e-mail) or a phone number (codes go
 * by SMS). Both are normalised so that one person is one identifier: e-mail addresses trimmed and
 * lower-cased, phone numbers in E.164.
 */
export type SignInIdentifier = { channel: "email"; value: string } | { channel: "sms"; value: string };

const emailSchema = z.email().max(254);

/** ISO 3166 code of the countries the service operates in, used for numbers written without +<country code>. */
export const countryCodes: Record<DeliveryCountry, CountryCode> = {
  "United States": "US",
  "United Arab Emirates": "AE",
  Australia: "AU",
  "United Kingdom": "GB",
};

export function countryCodeOf(country: string): CountryCode | undefined {
  return (countryCodes as Record<string, CountryCode | undefined>)[country];
}

/** E.164 for a valid number, read in `defaultCountry` when it has no +<country code>; undefined otherwise. */
export function normalisePhoneNumber(input: string, defaultCountry?: CountryCode): string | undefined {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 32 || !/^[+\d\s().-]+$/.test(trimmed)) return undefined;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry);
  return parsed?.isValid() ? parsed.number : undefined;
}

export function normaliseEmail(input: string): string | undefined {
  const trimmed = input.trim().toLowerCase();
  return emailSchema.safeParse(trimmed).success ? trimmed : undefined;
}

/** An address with "@" is an e-mail address; anything else must be a phone number. */
export function parseSignInIdentifier(input: string, defaultCountry?: CountryCode): SignInIdentifier | undefined {
  if (input.includes("@")) {
    const email = normaliseEmail(input);
    return email ? { channel: "email", value: email } : undefined;
  }
  const phone = normalisePhoneNumber(input, defaultCountry);
  return phone ? { channel: "sms", value: phone } : undefined;
}

/** An Idempotency-Key as the contract defines it: 16-128 of A-Z a-z 0-9 . _ : - (one rule for the document and the service). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{16,128}$/;
