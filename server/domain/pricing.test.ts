import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CartLine, GratuityChoice, LineSelection, PricedCart } from "./cart-types";
import type { FeePolicy } from "./catalog-types";
import { applyRate } from "./money";
import { lineUnitPrice, priceCart, type PricingInput } from "./pricing";

type SelectionSpec = { priceMinor: number; quantity: number };

function selection(index: number, spec: SelectionSpec): LineSelection {
  return {
    modifierGroupId: `grp-${index}`,
    modifierGroupName: `Group ${index}`,
    optionId: `opt-${index}`,
    optionName: `Option ${index}`,
    quantity: spec.quantity,
    priceMinor: spec.priceMinor,
  };
}

function line(id: string, basePriceMinor: number, quantity: number, selections: SelectionSpec[] = []): CartLine {
  return {
    id,
    productId: `prod-${id}`,
    name: `Product ${id}`,
    description: "",
    imageUrl: "",
    categoryId: "cat",
    quantity,
    basePriceMinor,
    selections: selections.map((spec, index) => selection(index, spec)),
    specialInstructions: "",
    itemUnavailableAction: "remove_item",
  };
}

const noFees: FeePolicy = {
  taxRate: "0",
  serviceFeeRate: "0",
  serviceFeeFixMinor: 0,
  enterpriseFeeRate: "0",
  enterpriseFeeFixMinor: 0,
  paymentProcessingFeeRate: "0",
  paymentProcessingFeeFixMinor: 0,
};

function input(overrides: Partial<PricingInput>): PricingInput {
  return {
    lines: [],
    discount: null,
    fees: noFees,
    fulfilmentFee: { feeFixMinor: 0, feeRate: "0" },
    gratuity: null,
    courier: null,
    courierTipMinor: 0,
    ...overrides,
  };
}

/** The money fields of a PricedCart (everything except lines and the echoed fee terms). */
const totalKeys = [
  "subTotalWithoutDiscount",
  "discountTotal",
  "subTotal",
  "waiterTipTotal",
  "courierTipTotal",
  "taxTotal",
  "serviceFeeTotal",
  "fulfillmentMethodFeeTotal",
  "taxAndFeeTotal",
  "paymentProcessingFeeTotal",
  "enterpriseFeeTotal",
  "applicationFeeTotal",
  "netSalesTotal",
  "orderTotal",
  "orderTotalWithServiceFee",
  "totalQuantity",
] as const satisfies readonly (keyof PricedCart)[];

function totals(priced: PricedCart): Record<(typeof totalKeys)[number], number> {
  return Object.fromEntries(totalKeys.map((key) => [key, priced[key]])) as Record<(typeof totalKeys)[number], number>;
}

describe("lineUnitPrice", () => {
  it("adds option price x option quantity to the base price", () => {
    expect(lineUnitPrice(line("a", 1099, 1, [{ priceMinor: 150, quantity: 1 }, { priceMinor: 75, quantity: 2 }]))).toBe(1399);
    expect(lineUnitPrice(line("b", 399, 5))).toBe(399);
  });
});

describe("priceCart fixtures", () => {
  it("usd: rate discount, rate gratuity, service fee, fulfilment fee, courier fee/tax/tip, tax", () => {
    const priced = priceCart(
      input({
        lines: [
          line("burger", 1099, 2, [{ priceMinor: 150, quantity: 1 }, { priceMinor: 75, quantity: 2 }]), // unit 1399, total 2798
          line("fries", 399, 3), // unit 399, total 1197
          line("soda", 250, 1, [{ priceMinor: 0, quantity: 1 }]), // unit 250, total 250
        ],
        discount: { rate: "0.1" }, // 424.5 -> 425
        fees: {
          taxRate: "0.0875",
          serviceFeeRate: "0.03",
          serviceFeeFixMinor: 50,
          enterpriseFeeRate: "0.02",
          enterpriseFeeFixMinor: 25,
          paymentProcessingFeeRate: "0.029",
          paymentProcessingFeeFixMinor: 30,
        },
        fulfilmentFee: { feeFixMinor: 299, feeRate: "0.05" },
        gratuity: { kind: "rate", rate: "0.18" },
        courier: { feeMinor: 500, taxMinor: 45 },
        courierTipMinor: 300,
      }),
    );
    expect(priced.lines).toEqual([
      // 425 split over 2798 / 1197 / 250: exact 280.13, 119.84, 25.03 -> floors 280, 119, 25, +1 to the .84
      { lineId: "burger", unitPriceMinor: 1399, totalMinor: 2798, discountMinor: 280 },
      { lineId: "fries", unitPriceMinor: 399, totalMinor: 1197, discountMinor: 120 },
      { lineId: "soda", unitPriceMinor: 250, totalMinor: 250, discountMinor: 25 },
    ]);
    expect(totals(priced)).toEqual({
      subTotalWithoutDiscount: 4245,
      discountTotal: 425,
      subTotal: 3820, // 4245 - 425
      waiterTipTotal: 764, // 0.18 x 4245 (pre-discount) = 764.1
      courierTipTotal: 300,
      taxTotal: 379, // 0.0875 x 3820 = 334.25 -> 334, + courier tax 45
      serviceFeeTotal: 165, // 0.03 x 3820 = 114.6 -> 115, + 50
      fulfillmentMethodFeeTotal: 990, // 0.05 x 3820 = 191, + 299 + courier fee 500
      taxAndFeeTotal: 1534, // 379 + 165 + 990
      paymentProcessingFeeTotal: 216, // 0.029 x 6418 = 186.122 -> 186, + 30
      enterpriseFeeTotal: 101, // 0.02 x 3820 = 76.4 -> 76, + 25
      applicationFeeTotal: 101,
      netSalesTotal: 3820,
      orderTotal: 6253, // 3820 + 379 + 990 + 764 + 300
      orderTotalWithServiceFee: 6418, // 6253 + 165
      totalQuantity: 6,
    });
    expect(priced.fees).toEqual({
      enterpriseFeeRate: "0.02",
      enterpriseFeeFixMinor: 25,
      serviceFeeRate: "0.03",
      serviceFeeFixMinor: 50,
      taxRate: "0.0875",
      tipRate: "0.18",
      fulfillmentMethodFeeFixMinor: 299,
      fulfillmentMethodFeeRate: "0.05",
      paymentProcessingFeeRate: "0.029",
      paymentProcessingFeeFixMinor: 30,
    });
  });

  const gbpFees: FeePolicy = {
    taxRate: "0.2",
    serviceFeeRate: "0.125",
    serviceFeeFixMinor: 100,
    enterpriseFeeRate: "0.01",
    enterpriseFeeFixMinor: 10,
    paymentProcessingFeeRate: "0.014",
    paymentProcessingFeeFixMinor: 20,
  };
  const gbpLines = [
    line("latte", 850, 1, [{ priceMinor: 60, quantity: 2 }, { priceMinor: 45, quantity: 1 }]), // unit 1015
    line("croissant", 325, 2), // unit 325, total 650
  ];

  it("gbp: fixed discount and gratuity by amount", () => {
    const priced = priceCart(
      input({ lines: gbpLines, discount: { amountMinor: 500 }, fees: gbpFees, gratuity: { kind: "amount", amountMinor: 200 } }),
    );
    expect(priced.lines).toEqual([
      // 500 split over 1015 / 650: exact 304.80, 195.20 -> 305, 195
      { lineId: "latte", unitPriceMinor: 1015, totalMinor: 1015, discountMinor: 305 },
      { lineId: "croissant", unitPriceMinor: 325, totalMinor: 650, discountMinor: 195 },
    ]);
    expect(totals(priced)).toEqual({
      subTotalWithoutDiscount: 1665,
      discountTotal: 500,
      subTotal: 1165,
      waiterTipTotal: 200,
      courierTipTotal: 0,
      taxTotal: 233, // 0.2 x 1165
      serviceFeeTotal: 246, // 0.125 x 1165 = 145.625 -> 146, + 100
      fulfillmentMethodFeeTotal: 0,
      taxAndFeeTotal: 479, // 233 + 246 + 0
      paymentProcessingFeeTotal: 46, // 0.014 x 1844 = 25.816 -> 26, + 20
      enterpriseFeeTotal: 22, // 0.01 x 1165 = 11.65 -> 12, + 10
      applicationFeeTotal: 22,
      netSalesTotal: 1165,
      orderTotal: 1598, // 1165 + 233 + 0 + 200 + 0
      orderTotalWithServiceFee: 1844, // 1598 + 246
      totalQuantity: 3,
    });
    expect(priced.fees.tipRate).toBe("0");
  });

  it("gbp: a fixed discount larger than the subtotal is capped at it", () => {
    const priced = priceCart(
      input({ lines: gbpLines, discount: { amountMinor: 2000 }, fees: gbpFees, gratuity: { kind: "amount", amountMinor: 200 } }),
    );
    expect(priced.lines.map((priced) => priced.discountMinor)).toEqual([1015, 650]);
    expect(totals(priced)).toEqual({
      subTotalWithoutDiscount: 1665,
      discountTotal: 1665,
      subTotal: 0,
      waiterTipTotal: 200,
      courierTipTotal: 0,
      taxTotal: 0,
      serviceFeeTotal: 100, // the cart is not empty, so the fixed part still applies
      fulfillmentMethodFeeTotal: 0,
      taxAndFeeTotal: 100,
      paymentProcessingFeeTotal: 24, // 0.014 x 300 = 4.2 -> 4, + 20
      enterpriseFeeTotal: 10,
      applicationFeeTotal: 10,
      netSalesTotal: 0,
      orderTotal: 200,
      orderTotalWithServiceFee: 300,
      totalQuantity: 3,
    });
  });

  it("aed: rate discount, gratuity rate on the pre-discount subtotal, courier", () => {
    const priced = priceCart(
      input({
        lines: [
          line("shawarma", 2500, 2, [{ priceMinor: 0, quantity: 1 }, { priceMinor: 700, quantity: 1 }]), // unit 3200, total 6400
          line("juice", 1500, 1), // 1500
          line("hummus", 1800, 1, [{ priceMinor: 250, quantity: 2 }]), // unit 2300
        ],
        discount: { rate: "0.15" }, // 0.15 x 10200 = 1530
        fees: {
          taxRate: "0.05",
          serviceFeeRate: "0",
          serviceFeeFixMinor: 0,
          enterpriseFeeRate: "0.025",
          enterpriseFeeFixMinor: 0,
          paymentProcessingFeeRate: "0.0275",
          paymentProcessingFeeFixMinor: 100,
        },
        fulfilmentFee: { feeFixMinor: 500, feeRate: "0.1" },
        gratuity: { kind: "rate", rate: "0.1" },
        courier: { feeMinor: 1000, taxMinor: 50 },
        courierTipMinor: 500,
      }),
    );
    expect(priced.lines).toEqual([
      { lineId: "shawarma", unitPriceMinor: 3200, totalMinor: 6400, discountMinor: 960 },
      { lineId: "juice", unitPriceMinor: 1500, totalMinor: 1500, discountMinor: 225 },
      { lineId: "hummus", unitPriceMinor: 2300, totalMinor: 2300, discountMinor: 345 },
    ]);
    expect(totals(priced)).toEqual({
      subTotalWithoutDiscount: 10200,
      discountTotal: 1530,
      subTotal: 8670,
      waiterTipTotal: 1020, // 0.1 x 10200, not 0.1 x 8670 = 867
      courierTipTotal: 500,
      taxTotal: 484, // 0.05 x 8670 = 433.5 -> 434, + 50
      serviceFeeTotal: 0,
      fulfillmentMethodFeeTotal: 2367, // 0.1 x 8670 = 867, + 500 + 1000
      taxAndFeeTotal: 2851, // 484 + 0 + 2367
      paymentProcessingFeeTotal: 459, // 0.0275 x 13041 = 358.6275 -> 359, + 100
      enterpriseFeeTotal: 217, // 0.025 x 8670 = 216.75 -> 217
      applicationFeeTotal: 217,
      netSalesTotal: 8670,
      orderTotal: 13041, // 8670 + 484 + 2367 + 1020 + 500
      orderTotalWithServiceFee: 13041,
      totalQuantity: 4,
    });
  });

  it("aud: rate-based amounts are rounded once on the order-level base, not per line", () => {
    const lines = [line("flat-white", 105, 1), line("long-black", 105, 1), line("cookie", 105, 1)];
    const fees: FeePolicy = {
      taxRate: "0.1",
      serviceFeeRate: "0.015",
      serviceFeeFixMinor: 0,
      enterpriseFeeRate: "0.05",
      enterpriseFeeFixMinor: 5,
      paymentProcessingFeeRate: "0.0175",
      paymentProcessingFeeFixMinor: 30,
    };
    // Per line, GST would be 10.5 -> 11 three times = 33 and the surcharge 1.575 -> 2 three times = 6.
    expect(lines.reduce((sum, each) => sum + applyRate(each.basePriceMinor, "0.1"), 0)).toBe(33);
    expect(lines.reduce((sum, each) => sum + applyRate(each.basePriceMinor, "0.015"), 0)).toBe(6);
    const priced = priceCart(input({ lines, fees }));
    expect(totals(priced)).toEqual({
      subTotalWithoutDiscount: 315,
      discountTotal: 0,
      subTotal: 315,
      waiterTipTotal: 0,
      courierTipTotal: 0,
      taxTotal: 32, // 0.1 x 315 = 31.5 -> 32
      serviceFeeTotal: 5, // 0.015 x 315 = 4.725 -> 5
      fulfillmentMethodFeeTotal: 0,
      taxAndFeeTotal: 37,
      paymentProcessingFeeTotal: 36, // 0.0175 x 352 = 6.16 -> 6, + 30
      enterpriseFeeTotal: 21, // 0.05 x 315 = 15.75 -> 16, + 5
      applicationFeeTotal: 21,
      netSalesTotal: 315,
      orderTotal: 347, // 315 + 32
      orderTotalWithServiceFee: 352, // 347 + 5
      totalQuantity: 3,
    });
    expect(priced.lines.every((each) => each.discountMinor === 0)).toBe(true);
  });

  it("aud: a rate discount is rounded on the order and split by largest remainder, ties by line order", () => {
    const lines = [line("a", 105, 1), line("b", 105, 1), line("c", 105, 1)];
    const priced = priceCart(input({ lines, discount: { rate: "0.1" }, fees: { ...noFees, taxRate: "0.1" } }));
    // 0.1 x 315 = 31.5 -> 32 (per line it would be 11 x 3 = 33); each exact share is 10.67, so the two
    // spare units go to the first two lines.
    expect(priced.discountTotal).toBe(32);
    expect(priced.lines.map((each) => each.discountMinor)).toEqual([11, 11, 10]);
    expect(priced.subTotal).toBe(283);
    expect(priced.taxTotal).toBe(28); // 0.1 x 283 = 28.3
  });

  it("rounds exactly half up on the order-level base", () => {
    // 0.5 x 1005 = 502.5 -> 503; 0.0875 x 200 = 17.5 -> 18
    expect(priceCart(input({ lines: [line("a", 1005, 1)], discount: { rate: "0.5" } })).discountTotal).toBe(503);
    expect(priceCart(input({ lines: [line("a", 100, 2)], fees: { ...noFees, taxRate: "0.0875" } })).taxTotal).toBe(18);
  });

  it("a rate discount of 1 makes the subtotal 0", () => {
    const priced = priceCart(input({ lines: gbpLines, discount: { rate: "1" } }));
    expect(priced.discountTotal).toBe(1665);
    expect(priced.subTotal).toBe(0);
  });
});

describe("empty cart", () => {
  it("costs exactly 0 everywhere, even with fixed fees, tips and a discount", () => {
    const priced = priceCart({
      lines: [],
      discount: { amountMinor: 500 },
      fees: {
        taxRate: "0.1",
        serviceFeeRate: "0.05",
        serviceFeeFixMinor: 99,
        enterpriseFeeRate: "0.02",
        enterpriseFeeFixMinor: 25,
        paymentProcessingFeeRate: "0.029",
        paymentProcessingFeeFixMinor: 30,
      },
      fulfilmentFee: { feeFixMinor: 299, feeRate: "0.05" },
      gratuity: { kind: "amount", amountMinor: 200 },
      courier: { feeMinor: 500, taxMinor: 45 },
      courierTipMinor: 300,
    });
    expect(priced.lines).toEqual([]);
    for (const key of totalKeys) expect(priced[key], key).toBe(0);
  });

  it("a cart with only free items is not empty: fixed fees apply", () => {
    const priced = priceCart(input({ lines: [line("water", 0, 1)], fees: { ...noFees, serviceFeeFixMinor: 99 } }));
    expect(priced.subTotal).toBe(0);
    expect(priced.serviceFeeTotal).toBe(99);
    expect(priced.orderTotalWithServiceFee).toBe(99);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const rateArb = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map((micro) => (micro / 1_000_000).toFixed(6)),
  fc.constantFrom("0", "1", "0.5", "0.1", "0.0875", "0.2", "0.05"),
);
const smallMinor = fc.integer({ min: 0, max: 100_000 });

const linesArb = fc
  .array(
    fc.record({
      basePriceMinor: smallMinor,
      quantity: fc.integer({ min: 1, max: 99 }),
      selections: fc.array(fc.record({ priceMinor: fc.integer({ min: 0, max: 5_000 }), quantity: fc.integer({ min: 1, max: 5 }) }), {
        maxLength: 3,
      }),
    }),
    { maxLength: 8 },
  )
  .map((specs) => specs.map((spec, index) => line(`line-${index}`, spec.basePriceMinor, spec.quantity, spec.selections)));

const inputArb: fc.Arbitrary<PricingInput> = fc.record({
  lines: linesArb,
  discount: fc.oneof(
    fc.constant(null),
    rateArb.map((rate) => ({ rate })),
    fc.integer({ min: 0, max: 2_000_000 }).map((amountMinor) => ({ amountMinor })),
  ),
  fees: fc.record({
    taxRate: rateArb,
    serviceFeeRate: rateArb,
    serviceFeeFixMinor: smallMinor,
    enterpriseFeeRate: rateArb,
    enterpriseFeeFixMinor: smallMinor,
    paymentProcessingFeeRate: rateArb,
    paymentProcessingFeeFixMinor: smallMinor,
  }),
  fulfilmentFee: fc.record({ feeFixMinor: smallMinor, feeRate: rateArb }),
  gratuity: fc.oneof(
    fc.constant(null),
    rateArb.map((rate): GratuityChoice => ({ kind: "rate", rate })),
    smallMinor.map((amountMinor): GratuityChoice => ({ kind: "amount", amountMinor })),
  ),
  courier: fc.option(fc.record({ feeMinor: smallMinor, taxMinor: smallMinor }), { nil: null }),
  courierTipMinor: smallMinor,
});

describe("priceCart properties", () => {
  it("every total is a non-negative safe integer and the discount never exceeds the subtotal", () => {
    fc.assert(
      fc.property(inputArb, (pricing) => {
        const priced = priceCart(pricing);
        for (const key of totalKeys) {
          expect(Number.isSafeInteger(priced[key]), key).toBe(true);
          expect(priced[key], key).toBeGreaterThanOrEqual(0);
        }
        for (const each of priced.lines) {
          expect(Number.isSafeInteger(each.discountMinor)).toBe(true);
          expect(each.discountMinor).toBeGreaterThanOrEqual(0);
          expect(each.discountMinor).toBeLessThanOrEqual(each.totalMinor);
        }
        expect(priced.discountTotal).toBeLessThanOrEqual(priced.subTotalWithoutDiscount);
      }),
    );
  });

  it("satisfies the identities in the module's doc comment", () => {
    fc.assert(
      fc.property(inputArb, (pricing) => {
        const priced = priceCart(pricing);
        const { fees } = pricing;
        const empty = pricing.lines.length === 0;
        const nonEmpty = (amount: number) => (empty ? 0 : amount);

        pricing.lines.forEach((each, index) => {
          const unit = each.basePriceMinor + each.selections.reduce((sum, chosen) => sum + chosen.priceMinor * chosen.quantity, 0);
          expect(priced.lines[index]).toMatchObject({ lineId: each.id, unitPriceMinor: unit, totalMinor: unit * each.quantity });
        });
        const gross = priced.lines.reduce((sum, each) => sum + each.totalMinor, 0);
        expect(priced.subTotalWithoutDiscount).toBe(gross);

        const requested = pricing.discount === null ? 0 : "rate" in pricing.discount ? applyRate(gross, pricing.discount.rate) : pricing.discount.amountMinor;
        expect(priced.discountTotal).toBe(Math.min(requested, gross));
        expect(priced.lines.reduce((sum, each) => sum + each.discountMinor, 0)).toBe(priced.discountTotal);

        expect(priced.subTotal).toBe(gross - priced.discountTotal);
        expect(priced.netSalesTotal).toBe(priced.subTotal);
        expect(priced.serviceFeeTotal).toBe(nonEmpty(applyRate(priced.subTotal, fees.serviceFeeRate) + fees.serviceFeeFixMinor));
        expect(priced.fulfillmentMethodFeeTotal).toBe(
          nonEmpty(applyRate(priced.subTotal, pricing.fulfilmentFee.feeRate) + pricing.fulfilmentFee.feeFixMinor + (pricing.courier?.feeMinor ?? 0)),
        );
        expect(priced.taxTotal).toBe(nonEmpty(applyRate(priced.subTotal, fees.taxRate) + (pricing.courier?.taxMinor ?? 0)));
        const chosenTip = pricing.gratuity === null ? 0 : pricing.gratuity.kind === "rate" ? applyRate(gross, pricing.gratuity.rate) : pricing.gratuity.amountMinor;
        // Never above the policy's maximum rate of the subtotal before discount (the whole of it without a policy).
        const tip = Math.min(chosenTip, applyRate(gross, pricing.gratuityMaxRate ?? "1"));
        expect(priced.waiterTipTotal).toBe(nonEmpty(tip));
        expect(priced.courierTipTotal).toBe(nonEmpty(pricing.courierTipMinor));
        expect(priced.taxAndFeeTotal).toBe(priced.taxTotal + priced.serviceFeeTotal + priced.fulfillmentMethodFeeTotal);
        expect(priced.orderTotal).toBe(
          priced.subTotal + priced.taxTotal + priced.fulfillmentMethodFeeTotal + priced.waiterTipTotal + priced.courierTipTotal,
        );
        expect(priced.orderTotalWithServiceFee).toBe(priced.orderTotal + priced.serviceFeeTotal);
        expect(priced.enterpriseFeeTotal).toBe(nonEmpty(applyRate(priced.subTotal, fees.enterpriseFeeRate) + fees.enterpriseFeeFixMinor));
        expect(priced.applicationFeeTotal).toBe(priced.enterpriseFeeTotal);
        expect(priced.paymentProcessingFeeTotal).toBe(
          nonEmpty(applyRate(priced.orderTotalWithServiceFee, fees.paymentProcessingFeeRate) + fees.paymentProcessingFeeFixMinor),
        );
        expect(priced.totalQuantity).toBe(pricing.lines.reduce((sum, each) => sum + each.quantity, 0));
        if (empty) for (const key of totalKeys) expect(priced[key], key).toBe(0);
      }),
    );
  });

  it("re-ordering the lines changes no total and no line's price", () => {
    fc.assert(
      fc.property(
        inputArb.chain((pricing) =>
          fc.tuple(
            fc.constant(pricing),
            fc.shuffledSubarray([...pricing.lines], { minLength: pricing.lines.length, maxLength: pricing.lines.length }),
          ),
        ),
        ([pricing, shuffled]) => {
          const original = priceCart(pricing);
          const reordered = priceCart({ ...pricing, lines: shuffled });
          expect(totals(reordered)).toEqual(totals(original));
          expect(reordered.fees).toEqual(original.fees);
          const byId = (priced: PricedCart) =>
            Object.fromEntries(priced.lines.map((each) => [each.lineId, [each.unitPriceMinor, each.totalMinor]] as const));
          expect(byId(reordered)).toEqual(byId(original));
          expect(reordered.lines.reduce((sum, each) => sum + each.discountMinor, 0)).toBe(original.discountTotal);
        },
      ),
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(inputArb, (pricing) => {
        expect(priceCart(pricing)).toEqual(priceCart(pricing));
      }),
    );
  });
});
