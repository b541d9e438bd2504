import { describe, expect, it } from "vitest";
import { formatClock, formatMoney, localDate, MONEY_INPUT, minorToDecimal, sameDecimal } from "./format";

describe("money display", () => {
  it("moves the decimal point of minor units without arithmetic", () => {
    expect([0, 5, 99, 349, 100000, -5, Number.MAX_SAFE_INTEGER].map(minorToDecimal)).toEqual(["0.00", "0.05", "0.99", "3.49", "1000.00", "-0.05", "90071992547409.91"]);
    expect(() => minorToDecimal(1.5)).toThrow();
  });

  it("formats decimal strings exactly, in each currency's display locale", () => {
    expect(formatMoney("21.5", "usd")).toBe("$21.50");
    expect(formatMoney("90071992547409.91", "usd")).toBe("$90,071,992,547,409.91");
    expect(formatMoney("3", "gbp")).toBe("£3.00");
    expect(formatMoney("12.00", "aed")).toMatch(/^AED\s12\.00$/);
  });

  it("compares decimal strings by value and accepts the amounts customers type", () => {
    expect(sameDecimal("5", "5.00")).toBe(true);
    expect(sameDecimal("4.50", "4.5")).toBe(true);
    expect(sameDecimal("50", "5")).toBe(false);
    expect(["5", "4.5", "4.50", "0"].every((value) => MONEY_INPUT.test(value))).toBe(true);
    expect(["4.555", "-1", "4,50", "", "1e3", "12345678"].some((value) => MONEY_INPUT.test(value))).toBe(false);
  });

  it("shows an instant as the location's clock time", () => {
    expect(formatClock("2025-06-01T22:45:00.000Z", "America/New_York")).toBe("6:45 PM");
    expect(formatClock("2025-06-01T22:45:00.000Z", "Asia/Dubai")).toBe("2:45 AM");
  });
});

describe("calendar dates at the location", () => {
  it("names the local day of an instant, across the date line of the zone", () => {
    expect(localDate("2026-12-02T23:30:00Z", "Asia/Dubai")).toBe("2026-12-03");
    expect(localDate("2026-12-02T03:30:00Z", "America/New_York")).toBe("2026-12-01");
    expect(localDate("2026-12-02T12:00:00Z", "UTC")).toBe("2026-12-02");
  });
});
