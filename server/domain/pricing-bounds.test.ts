import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import type { CartLine, PricedCart } from "./cart-types";
import { MAX_MINOR, safeMinor } from "./money";
import { priceCart, type PricingInput } from "./pricing";

const line = (basePriceMinor: number, quantity: number, optionPriceMinor = 0): CartLine => ({
  id: "li_1",
  productId: "prd_1",
  name: "",
  description: "",
  imageUrl: "",
  categoryId: "cat",
  quantity,
  basePriceMinor,
  selections: optionPriceMinor === 0 ? [] : [{ modifierGroupId: "mg", modifierGroupName: "", optionId: "opt", optionName: "", quantity: 1, priceMinor: optionPriceMinor }],
  specialInstructions: "",
  itemUnavailableAction: "remove_item",
});

const input = (overrides: Partial<PricingInput>): PricingInput => ({
  lines: [],
  discount: null,
  fees: { taxRate: "0.0875", serviceFeeRate: "0.05", serviceFeeFixMinor: 30, enterpriseFeeRate: "0.02", enterpriseFeeFixMinor: 10, paymentProcessingFeeRate: "0.029", paymentProcessingFeeFixMinor: 30 },
  fulfilmentFee: { feeFixMinor: 0, feeRate: "0" },
  gratuity: null,
  courier: null,
  courierTipMinor: 0,
  ...overrides,
});

function refusal(run: () => unknown): { code: string; field: string | undefined } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!isAppError(error)) throw error;
    const fields = error.details?.fields as { path: string }[] | undefined;
    return { code: error.code, field: fields?.[0]?.path };
  }
}

const moneyOf = (priced: PricedCart) => Object.entries(priced).filter(([, value]) => typeof value === "number");

describe("pricing past 2^53 - 1 minor units", () => {
  it("refuses a line total past the limit as a validation error naming it, instead of an inexact number", () => {
    expect(refusal(() => priceCart(input({ lines: [line(895, 2, 2 ** 52)] })))).toEqual({ code: "VALIDATION_ERROR", field: "items.0.total" });
    expect(refusal(() => priceCart(input({ lines: [line(1, 1, MAX_MINOR)] })))).toEqual({ code: "VALIDATION_ERROR", field: "items.0.price" });
    // The name is made from the line's index only when the amount is refused.
    expect(refusal(() => priceCart(input({ lines: [line(100, 1), line(1, 1, MAX_MINOR)] })))).toEqual({ code: "VALIDATION_ERROR", field: "items.1.price" });
    expect(refusal(() => priceCart(input({ lines: [line(100, 1), line(100, 1), line(895, 2, 2 ** 52)] })))).toEqual({ code: "VALIDATION_ERROR", field: "items.2.total" });
  });

  it("refuses totals that only the fees or the tips push past the limit", () => {
    const big = Math.floor(MAX_MINOR / 1.1);
    expect(refusal(() => priceCart(input({ lines: [line(big, 1)] })))?.code).toBe("VALIDATION_ERROR");
    expect(refusal(() => priceCart(input({ lines: [line(1000, 1)], courierTipMinor: MAX_MINOR })))).toEqual({ code: "VALIDATION_ERROR", field: "orderTotal" });
  });

  it("caps a fixed tip at maxRate of the subtotal before discount, so no stored amount can overflow or exceed policy", () => {
    const priced = priceCart(input({ lines: [line(1450, 1)], gratuity: { kind: "amount", amountMinor: 999_999_999_999_900 }, gratuityMaxRate: "0.5" }));
    expect(priced.waiterTipTotal).toBe(725);
    expect(priceCart(input({ lines: [], gratuity: { kind: "amount", amountMinor: MAX_MINOR }, gratuityMaxRate: "0.5" })).waiterTipTotal).toBe(0);
    expect(priceCart(input({ lines: [line(1000, 1)], gratuity: { kind: "rate", rate: "0.9" }, gratuityMaxRate: "0.2" })).waiterTipTotal).toBe(200);
    // Without a policy the tip is at most the subtotal itself.
    expect(priceCart(input({ lines: [line(1000, 1)], gratuity: { kind: "amount", amountMinor: 5000 } })).waiterTipTotal).toBe(1000);
  });

  it("answers every cart either with safe integers throughout or with a validation error", () => {
    const amount = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(2 ** 31, 2 ** 52, MAX_MINOR - 1, MAX_MINOR));
    fc.assert(
      fc.property(fc.array(fc.tuple(amount, fc.integer({ min: 1, max: 9999 }), amount), { maxLength: 4 }), amount, amount, (lines, tip, courierTip) => {
        const run = () => priceCart(input({ lines: lines.map(([base, quantity, option]) => line(base, quantity, option)), gratuity: { kind: "amount", amountMinor: tip }, courierTipMinor: courierTip }));
        const failure = refusal(run);
        if (failure) expect(failure.code).toBe("VALIDATION_ERROR");
        else for (const [name, value] of moneyOf(run())) expect(Number.isSafeInteger(value), name).toBe(true);
      }),
    );
  });

  it("safeMinor lets safe integers through and refuses anything else", () => {
    expect(safeMinor(MAX_MINOR, "x")).toBe(MAX_MINOR);
    for (const value of [MAX_MINOR + 1, 2 ** 53, 1e308, Number.NaN, Number.POSITIVE_INFINITY, 1.5]) expect(refusal(() => safeMinor(value, "amount"))).toEqual({ code: "VALIDATION_ERROR", field: "amount" });
  });
});
