import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalFormatter } from "./display-format";
import { currencies, displayFormat, formatMinor, MAX_MINOR, toDecimalString } from "./money";

const amountArb = fc.oneof(fc.integer({ min: -MAX_MINOR, max: MAX_MINOR }), fc.integer({ min: -100_000, max: 100_000 }), fc.constantFrom(0, 1, 999, 1000, 99_999, 100_000, MAX_MINOR, -MAX_MINOR));

describe("display format", () => {
  it("writes every amount of every currency exactly as Intl does", () => {
    const intl = new Map(currencies.map((currency) => [currency, displayFormat(currency)]));
    fc.assert(
      fc.property(amountArb, fc.constantFrom(...currencies), (amount, currency) => {
        expect(formatMinor(amount, currency)).toBe(intl.get(currency)?.format(toDecimalString(amount, currency) as unknown as number));
      }),
      { numRuns: 2_000 },
    );
  });

  it("follows Intl for locales that place the currency after the number, or group digits otherwise", () => {
    // de-DE: "1.234.567,25 €" (taken by hand); en-IN: "₹12,34,567.25" (not three-digit groups: Intl itself).
    for (const intl of [new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }), new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" })]) {
      const format = decimalFormatter(intl);
      for (const decimal of ["0.05", "1234567.25", "-1234567.25", "12345678901.00", "-3.10"]) expect(format(decimal)).toBe(intl.format(decimal as unknown as number));
    }
  });
});
