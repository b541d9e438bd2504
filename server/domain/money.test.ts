import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocateProportionally,
  applyRate,
  currencies,
  formatMinor,
  isValidRate,
  MAX_MINOR,
  minorDigits,
  parseDecimalToMinor,
  toDecimalString,
} from "./money";

describe("minorDigits", () => {
  it("is 2 for every supported currency", () => {
    for (const currency of currencies) expect(minorDigits(currency)).toBe(2);
  });
});

describe("toDecimalString", () => {
  it.each([
    [1234, "12.34"],
    [0, "0.00"],
    [5, "0.05"],
    [100, "1.00"],
    [-5, "-0.05"],
    [-1234, "-12.34"],
    [MAX_MINOR, "90071992547409.91"],
  ])("%d -> %s", (amount, expected) => {
    expect(toDecimalString(amount, "usd")).toBe(expected);
  });

  it("is the exact decimal of every safe integer, negative ones included (checked against big.js)", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (amount) => {
        expect(toDecimalString(amount, "usd")).toBe(new Big(amount).div(100).toFixed(2));
      }),
      { numRuns: 2_000 },
    );
    expect(toDecimalString(-MAX_MINOR, "usd")).toBe("-90071992547409.91");
  });

  it("refuses non-integer and unsafe amounts", () => {
    expect(() => toDecimalString(1.5, "usd")).toThrow(RangeError);
    expect(() => toDecimalString(Number.NaN, "usd")).toThrow(RangeError);
    expect(() => toDecimalString(MAX_MINOR + 1, "usd")).toThrow(RangeError);
  });
});

describe("parseDecimalToMinor", () => {
  it.each([
    ["12.34", 1234],
    ["12.3", 1230],
    ["12", 1200],
    ["0", 0],
    ["0.00", 0],
    ["0.01", 1],
    ["007.50", 750],
    ["1.500", 150],
    ["2.000000", 200],
    ["90071992547409.91", MAX_MINOR],
  ])("parses %s as %d", (value, expected) => {
    expect(parseDecimalToMinor(value, "gbp")).toBe(expected);
  });

  it.each([
    ["1.005", "more fraction digits than the currency has"],
    ["0.001", "more fraction digits than the currency has"],
    ["1.0050", "a finer fraction than the currency has, trailing zero or not"],
    ["-1.00", "negative"],
    ["-0", "negative zero"],
    ["+1", "explicit sign"],
    ["1e2", "exponent"],
    ["1E2", "exponent"],
    ["1.5e1", "exponent"],
    [" 1.00", "leading space"],
    ["1.00 ", "trailing space"],
    ["1 000", "inner space"],
    ["1,000.00", "group separator"],
    ["", "empty"],
    [".5", "no integer part"],
    ["1.", "no fraction digits"],
    ["0x10", "hex"],
    ["Infinity", "infinity"],
    ["NaN", "NaN"],
    ["90071992547409.92", "one minor unit above 2^53-1"],
    ["100000000000000", "far above 2^53-1"],
    ["99999999999999999999999", "huge"],
  ])("refuses %j (%s)", (value) => {
    expect(parseDecimalToMinor(value, "usd")).toBeUndefined();
  });

  it("round-trips every safe non-negative amount through toDecimalString", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.constantFrom(...currencies), (amount, currency) => {
        expect(parseDecimalToMinor(toDecimalString(amount, currency), currency)).toBe(amount);
      }),
    );
  });

  it("round-trips canonical decimal strings through toDecimalString", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999n }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const text = `${whole}.${String(cents).padStart(2, "0")}`;
        const minor = parseDecimalToMinor(text, "aud");
        expect(minor).toBe(Number(whole) * 100 + cents);
        expect(toDecimalString(minor ?? -1, "aud")).toBe(text);
      }),
    );
  });
});

describe("formatMinor (Intl on Node 20)", () => {
  // en-AE separates the code from the amount with a no-break space (U+00A0).
  const nbsp = "\u00a0";
  it.each([
    ["usd", 1234, "$12.34"],
    ["usd", -1234, "-$12.34"],
    ["usd", 0, "$0.00"],
    ["usd", 5, "$0.05"],
    ["usd", 123456789, "$1,234,567.89"],
    ["gbp", 1234, "£12.34"],
    ["gbp", -1234, "-£12.34"],
    ["gbp", 0, "£0.00"],
    ["gbp", 300, "£3.00"],
    ["aud", 1234, "$12.34"],
    ["aud", -1234, "-$12.34"],
    ["aud", 0, "$0.00"],
    ["aed", 4550, `AED${nbsp}45.50`],
    ["aed", 1234, `AED${nbsp}12.34`],
    ["aed", -1234, `-AED${nbsp}12.34`],
    ["aed", 0, `AED${nbsp}0.00`],
  ] as const)("%s %d -> %j", (currency, amount, expected) => {
    expect(formatMinor(amount, currency)).toBe(expected);
  });

  it("formats amounts beyond float precision exactly", () => {
    expect(formatMinor(MAX_MINOR, "usd")).toBe("$90,071,992,547,409.91");
  });

  it("refuses non-integer amounts", () => {
    expect(() => formatMinor(12.5, "usd")).toThrow(RangeError);
    expect(() => formatMinor(12.5, "usd")).toThrow(RangeError);
  });

  it("answers from its kept strings exactly what Intl answers, for each currency, past the limit where it empties", () => {
    const intl = (currency: "usd" | "aed") => new Intl.NumberFormat(currency === "usd" ? "en-US" : "en-AE", { style: "currency", currency: currency.toUpperCase() });
    for (const currency of ["usd", "aed"] as const) {
      const reference = intl(currency);
      for (let round = 0; round < 2; round += 1) {
        for (let amount = -50; amount < 10_050; amount += 1) {
          const expected = reference.format(toDecimalString(amount, currency) as unknown as number);
          if (formatMinor(amount, currency) !== expected) throw new Error(`${currency} ${amount}: ${formatMinor(amount, currency)} != ${expected}`);
        }
      }
      expect(formatMinor(1234, currency)).toBe(reference.format("12.34" as unknown as number));
    }
  });
});

describe("applyRate", () => {
  it.each([
    [1005, "0.5", 503], // 502.5 rounds half-up
    [1, "0.5", 1], // 0.5 rounds up
    [3, "0.5", 2], // 1.5
    [3, "0.1666665", 0], // 0.4999995 rounds down
    [3, "0.1666667", 1], // 0.5000001 rounds up
    [35, "0.7", 25], // exactly 24.5; float 35 * 0.7 = 24.499999999999996 would round to 24
    [1000, "0.0875", 88], // 87.5
    [999, "0.0875", 87], // 87.4125
    [12345, "0", 0],
    [12345, "1", 12345],
    [0, "0.2", 0],
    [MAX_MINOR, "1", MAX_MINOR],
  ])("%d x %s = %d", (amount, rate, expected) => {
    expect(applyRate(amount, rate)).toBe(expected);
  });

  it("refuses non-integer amounts", () => {
    expect(() => applyRate(10.5, "0.1")).toThrow(RangeError);
  });

  it("never exceeds the amount for rates up to 1 and is monotonic in the amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 0, max: 1_000_000 }), (amount, micro) => {
        const rate = (micro / 1_000_000).toFixed(6);
        const result = applyRate(amount, rate);
        expect(Number.isSafeInteger(result)).toBe(true);
        expect(result).toBeGreaterThanOrEqual(0);
        expect(result).toBeLessThanOrEqual(amount);
        expect(applyRate(amount + 1, rate)).toBeGreaterThanOrEqual(result);
      }),
    );
  });
});

describe("applyRate against big.js", () => {
  it("is big.js's exact product rounded half away from zero, negative amounts and long fractions included", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 9 }), (amount, digits, scale) => {
        const text = digits.toString().padStart(scale + 1, "0");
        const rate = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
        const expected = new Big(amount).times(rate).round(0, Big.roundHalfUp);
        if (expected.abs().gt(Number.MAX_SAFE_INTEGER)) return;
        // + 0: a zero is +0 here, where big.js answers -0 for a negative amount.
        expect(applyRate(amount, rate)).toBe(expected.toNumber() + 0);
      }),
    );
  });

  it("reads a rate in any form big.js reads, and long fractions exactly", () => {
    expect(applyRate(1000, "8.75e-2")).toBe(88);
    expect(applyRate(-3, "0.00000000000000000000")).toBe(0);
    expect(Object.is(applyRate(-3, "0.00000000000000000000"), 0)).toBe(true);
    expect(applyRate(3, "0.16666650000000000000")).toBe(0);
    expect(applyRate(3, "0.16666670000000000001")).toBe(1);
  });
});

describe("allocateProportionally", () => {
  it("is the largest-remainder split computed with big.js", () => {
    const reference = (total: number, weights: number[]): number[] => {
      const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
      if (weightSum === 0) return weights.map(() => 0);
      const exact = weights.map((weight) => new Big(total).times(weight).div(weightSum));
      const floors = exact.map((value) => value.round(0, Big.roundDown).toNumber());
      let remainder = total - floors.reduce((sum, value) => sum + value, 0);
      const order = exact.map((value, index) => ({ index, fraction: value.minus(floors[index] ?? 0) })).sort((a, b) => b.fraction.cmp(a.fraction) || a.index - b.index);
      for (const { index } of order) {
        if (remainder <= 0) break;
        floors[index] = (floors[index] ?? 0) + 1;
        remainder -= 1;
      }
      return floors;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 1, maxLength: 30 }), (total, weights) => {
        expect(allocateProportionally(total, weights)).toEqual(reference(total, weights));
      }),
    );
  });

  it("splits exactly when the weights divide the total", () => {
    expect(allocateProportionally(100, [1, 1, 2])).toEqual([25, 25, 50]);
    expect(allocateProportionally(0, [5, 7])).toEqual([0, 0]);
  });

  it("gives remainders to the largest fractions", () => {
    // exact shares 6.6, 3.3, 0.1 -> floors 6, 3, 0 -> one unit left for the largest fraction (index 0)
    expect(allocateProportionally(10, [66, 33, 1])).toEqual([7, 3, 0]);
    // exact shares 1.2, 2.4, 3.6, 4.8 -> floors 1, 2, 3, 4 -> two units for fractions .8 and .6
    expect(allocateProportionally(12, [1, 2, 3, 4])).toEqual([1, 2, 4, 5]);
  });

  it("breaks ties by index", () => {
    expect(allocateProportionally(1, [1, 1, 1])).toEqual([1, 0, 0]);
    expect(allocateProportionally(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(allocateProportionally(3, [1, 1, 1, 1])).toEqual([1, 1, 1, 0]);
    // exact shares 0, 1, 0.5, 0.5 -> floors 0, 1, 0, 0 -> the tie on 0.5 goes to index 2, not 3
    expect(allocateProportionally(2, [0, 2, 1, 1])).toEqual([0, 1, 1, 0]);
    // same weights in another order: the tie now goes to the lower index of the two halves
    expect(allocateProportionally(2, [1, 1, 2, 0])).toEqual([1, 0, 1, 0]);
  });

  it("gives nothing to zero weights and handles an all-zero or empty weight list", () => {
    expect(allocateProportionally(7, [0, 3, 0])).toEqual([0, 7, 0]);
    expect(allocateProportionally(0, [0, 0])).toEqual([0, 0]);
    expect(allocateProportionally(0, [])).toEqual([]);
  });

  it("handles amounts near 2^53 - 1 without float error", () => {
    const parts = allocateProportionally(MAX_MINOR, [1, 1]);
    expect(parts).toEqual([4503599627370496, 4503599627370495]);
    expect(parts[0]! + parts[1]!).toBe(MAX_MINOR);
  });

  const weightsArb = fc
    .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 })
    .filter((weights) => weights.some((weight) => weight > 0));

  it("always sums to the total, stays within a unit of the exact share, and is deterministic", () => {
    fc.assert(
      fc.property(weightsArb, fc.integer({ min: 0, max: 10 ** 9 }), (weights, total) => {
        const parts = allocateProportionally(total, weights);
        expect(parts).toHaveLength(weights.length);
        expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total);
        const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
        parts.forEach((part, index) => {
          const exact = (total * weights[index]!) / weightSum;
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(Math.floor(exact) - 1e-6);
          expect(part).toBeLessThanOrEqual(Math.ceil(exact) + 1e-6);
          if (weights[index] === 0) expect(part).toBe(0);
        });
        expect(allocateProportionally(total, weights)).toEqual(parts);
      }),
    );
  });

  it("never gives more to a smaller weight than to a larger one", () => {
    fc.assert(
      fc.property(weightsArb, fc.integer({ min: 0, max: 10 ** 6 }), (weights, total) => {
        const parts = allocateProportionally(total, weights);
        for (let i = 0; i < weights.length; i++) {
          for (let j = 0; j < weights.length; j++) {
            if (weights[i]! > weights[j]!) expect(parts[i]).toBeGreaterThanOrEqual(parts[j]!);
          }
        }
      }),
    );
  });
});

describe("isValidRate", () => {
  it.each(["0", "1", "0.5", "0.0875", "0.123456", "1.0", "1.000000", "00.5"])("accepts %j", (rate) => {
    expect(isValidRate(rate)).toBe(true);
  });

  it.each(["1.000001", "2", "0.1234567", "-0.1", ".5", "1.", "", " 0.1", "0.1 ", "1e-2", "abc", "0,5"])("refuses %j", (rate) => {
    expect(isValidRate(rate)).toBe(false);
  });
});
