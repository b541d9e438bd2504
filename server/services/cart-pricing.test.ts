import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppliedDiscount, CartLine, GratuityChoice, PricedCart } from "../domain/cart-types";
import type { FeePolicy, FulfilmentPolicy } from "../domain/catalog-types";
import type { DeliveryQuote } from "../domain/delivery";
import { fingerprint } from "../domain/fingerprint";
import { quoteFingerprintOf, repriceCart } from "./cart-pricing";

/** Property tests of the quote fingerprint: it moves exactly when what the customer pays moves. */

const now = new Date("2030-01-07T15:00:00.000Z");
const fees: FeePolicy = {
  taxRate: "0.0625",
  serviceFeeRate: "0.03",
  serviceFeeFixMinor: 0,
  enterpriseFeeRate: "0.01",
  enterpriseFeeFixMinor: 10,
  paymentProcessingFeeRate: "0.029",
  paymentProcessingFeeFixMinor: 30,
};
const fulfilment: FulfilmentPolicy = {
  takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 15, slotMinutes: 15 },
  delivery: { enabled: true, feeFixMinor: 199, feeRate: "0.02", leadMinutes: 45, slotMinutes: 15 },
};
const location = { fees, fulfilment, gratuity: { presets: [], defaultRate: null, allowCustomAmount: true, maxRate: "0.5" } };

type PricedInput = Parameters<typeof repriceCart>[0];

const selectionArb = fc.record({
  modifierGroupId: fc.constantFrom("mg_a", "mg_b", "mg_c"),
  modifierGroupName: fc.constant("Group"),
  optionId: fc.constantFrom("opt_1", "opt_2", "opt_3"),
  optionName: fc.constant("Option"),
  quantity: fc.integer({ min: 1, max: 3 }),
  priceMinor: fc.integer({ min: 0, max: 500 }),
});

const lineArb = fc.record({
  productId: fc.constantFrom("prd_a", "prd_b", "prd_c", "prd_d"),
  quantity: fc.integer({ min: 1, max: 20 }),
  // At least one minor unit: a tip is capped at maxRate of the subtotal, so only a cart that costs something can change its tip.
  basePriceMinor: fc.integer({ min: 1, max: 5_000 }),
  selections: fc.array(selectionArb, { maxLength: 3 }),
  specialInstructions: fc.string({ maxLength: 12 }),
});

const discountArb: fc.Arbitrary<AppliedDiscount | null> = fc.oneof(
  fc.constant(null),
  fc.record({ code: fc.constant("RATE"), rate: fc.constantFrom("0.05", "0.10", "0.25"), amountMinor: fc.constant(null), minimumSubtotalMinor: fc.constant(0) }),
  fc.record({ code: fc.constant("FIXED"), rate: fc.constant(null), amountMinor: fc.integer({ min: 1, max: 2_000 }), minimumSubtotalMinor: fc.constant(0) }),
);

const gratuityArb: fc.Arbitrary<GratuityChoice | null> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("rate" as const), rate: fc.constantFrom("0.15", "0.18", "0.2") }),
  fc.record({ kind: fc.constant("amount" as const), amountMinor: fc.integer({ min: 0, max: 3_000 }) }),
);

const courierArb = fc.record({ feeMinor: fc.integer({ min: 0, max: 2_000 }), taxMinor: fc.integer({ min: 0, max: 300 }), tipMinor: fc.integer({ min: 0, max: 1_500 }) });

const cartArb = fc
  .record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 6 }),
    discount: discountArb,
    gratuity: gratuityArb,
    delivery: fc.option(courierArb, { nil: null }),
  })
  .map(({ lines, discount, gratuity, delivery }): PricedInput => ({
    lines: lines.map(
      (line, index): CartLine => ({
        ...line,
        id: `li_${index}`,
        name: line.productId,
        description: "",
        imageUrl: "",
        categoryId: "cat",
        itemUnavailableAction: "remove_item",
      }),
    ),
    discount,
    gratuity,
    currency: "usd",
    fulfilmentMethod: delivery ? "delivery" : "takeout",
    courierTipMinor: delivery ? delivery.tipMinor : null,
    deliveryQuote: delivery ? quote(delivery.feeMinor, delivery.taxMinor, delivery.tipMinor) : null,
    pickupType: "ASAP",
    orderDate: "",
    orderTime: "",
  }));

function quote(feeMinor: number, taxMinor: number, courierTipMinor: number): DeliveryQuote {
  return {
    provider: "PARTNER_DRIVE",
    externalDeliveryId: "dlv_1",
    quoteFingerprint: "0".repeat(64),
    feeMinor,
    taxMinor,
    courierTipMinor,
    currency: "usd",
    quotedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 5 * 60_000).toISOString(),
  };
}

const fingerprintOf = (cart: PricedInput, at = now, where = location) => repriceCart(cart, where, at).quoteFingerprint;

/** A permutation of 0..n-1 drawn from a seed. */
function permute<T>(items: readonly T[], seed: number): T[] {
  return items
    .map((item, index) => ({ item, rank: Math.imul(index + 1, 2654435761 ^ seed) >>> 0 }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ item }) => item);
}

type Mutation = (cart: PricedInput, index: number, delta: number) => PricedInput;

function onLine(cart: PricedInput, index: number, change: (line: CartLine) => CartLine): PricedInput {
  const at = index % cart.lines.length;
  return { ...cart, lines: cart.lines.map((line, position) => (position === at ? change(line) : line)) };
}

/** Changes that always alter what the customer pays (or pays for). */
/**
 * A tip choice that changes what the tip comes to: none where the cart has a tip, else the largest
 * the policy allows (pricing caps every tip at maxRate of the subtotal, so a larger amount than
 * the cap would change nothing that is charged).
 */
function otherTip(cart: PricedInput): GratuityChoice {
  const tipped = repriceCart(cart, location, now).priced.waiterTipTotal > 0;
  return tipped ? { kind: "amount", amountMinor: 0 } : { kind: "rate", rate: location.gratuity.maxRate };
}

const pricedMutations: Record<string, Mutation> = {
  productPrice: (cart, index, delta) => onLine(cart, index, (line) => ({ ...line, basePriceMinor: line.basePriceMinor + delta })),
  quantity: (cart, index, delta) => onLine(cart, index, (line) => ({ ...line, quantity: line.quantity + delta })),
  optionPrice: (cart, index, delta) =>
    onLine(cart, index, (line) => ({
      ...line,
      selections: [...line.selections, { modifierGroupId: "mg_z", modifierGroupName: "Z", optionId: "opt_z", optionName: "Z", quantity: 1, priceMinor: delta }],
    })),
  product: (cart, index) => onLine(cart, index, (line) => ({ ...line, productId: `${line.productId}_other` })),
  addLine: (cart, _index, delta) => ({ ...cart, lines: [...cart.lines, { ...(cart.lines[0] as CartLine), id: "li_new", basePriceMinor: delta }] }),
  courierFee: (cart, _index, delta) => (cart.deliveryQuote ? { ...cart, deliveryQuote: { ...cart.deliveryQuote, feeMinor: cart.deliveryQuote.feeMinor + delta } } : onLine(cart, 0, (line) => ({ ...line, quantity: line.quantity + delta }))),
  courierTax: (cart, _index, delta) => (cart.deliveryQuote ? { ...cart, deliveryQuote: { ...cart.deliveryQuote, taxMinor: cart.deliveryQuote.taxMinor + delta } } : onLine(cart, 0, (line) => ({ ...line, basePriceMinor: line.basePriceMinor + delta }))),
  courierTip: (cart, _index, delta) =>
    cart.deliveryQuote
      ? { ...cart, courierTipMinor: (cart.courierTipMinor ?? 0) + delta, deliveryQuote: { ...cart.deliveryQuote, courierTipMinor: cart.deliveryQuote.courierTipMinor + delta } }
      : { ...cart, gratuity: otherTip(cart) },
  gratuity: (cart) => ({ ...cart, gratuity: otherTip(cart) }),
  // Not priced, but paid for: when the order is for (checkout checks it at the payment session).
  orderTime: (cart, index) =>
    cart.pickupType === "ASAP"
      ? { ...cart, pickupType: "LATER", orderDate: "2030-01-07", orderTime: `${String(10 + (index % 12)).padStart(2, "0")}:30` }
      : { ...cart, pickupType: "ASAP", orderDate: "", orderTime: "" },
};

describe("quote fingerprint (property tests)", () => {
  it("is a 64-hex digest of a non-empty cart, deterministic", () => {
    fc.assert(
      fc.property(cartArb, (cart) => {
        const value = fingerprintOf(cart);
        expect(value).toMatch(/^[0-9a-f]{64}$/);
        expect(fingerprintOf(structuredClone(cart))).toBe(value);
      }),
    );
  });

  it("is stable under re-ordering (and re-numbering) of the lines", () => {
    fc.assert(
      fc.property(cartArb, fc.integer(), (cart, seed) => {
        const reordered = permute(cart.lines, seed).map((line, index) => ({ ...line, id: `li_reordered_${index}` }));
        expect(fingerprintOf({ ...cart, lines: reordered })).toBe(fingerprintOf(cart));
      }),
    );
  });

  it("ignores what does not change the charge: instructions, merchant-borne fees, the clock, the courier quote's id and expiry", () => {
    fc.assert(
      fc.property(cartArb, fc.string({ maxLength: 10 }), fc.integer({ min: 1, max: 10_000_000 }), (cart, text, shiftMs) => {
        const base = fingerprintOf(cart);
        expect(fingerprintOf({ ...cart, lines: cart.lines.map((line) => ({ ...line, specialInstructions: line.specialInstructions + text })) })).toBe(base);
        const merchantFees = { ...location, fees: { ...fees, enterpriseFeeRate: "0.02", enterpriseFeeFixMinor: 99, paymentProcessingFeeRate: "0.035", paymentProcessingFeeFixMinor: 45 } };
        expect(fingerprintOf(cart, now, merchantFees)).toBe(base);
        expect(fingerprintOf(cart, new Date(now.getTime() + shiftMs))).toBe(base);
        if (cart.deliveryQuote) {
          const renewed = { ...cart.deliveryQuote, externalDeliveryId: "dlv_2", expiresAt: new Date(now.getTime() + shiftMs).toISOString() };
          expect(fingerprintOf({ ...cart, deliveryQuote: renewed })).toBe(base);
        }
      }),
    );
  });

  it("changes with the order's date or time", () => {
    fc.assert(
      fc.property(cartArb, (cart) => {
        const at = (orderDate: string, orderTime: string): PricedInput => ({ ...cart, pickupType: "LATER", orderDate, orderTime });
        const fingerprints = new Set([fingerprintOf(cart), fingerprintOf(at("2030-01-07", "08:00")), fingerprintOf(at("2030-01-07", "19:00")), fingerprintOf(at("2030-01-08", "08:00"))]);
        expect(fingerprints.size).toBe(4);
      }),
      { numRuns: 50 },
    );
  });

  it("changes when any priced input changes", () => {
    fc.assert(
      fc.property(cartArb, fc.constantFrom(...Object.keys(pricedMutations)), fc.nat(), fc.integer({ min: 1, max: 1_000 }), (cart, name, index, delta) => {
        const mutate = pricedMutations[name];
        if (!mutate) throw new Error(name);
        expect(fingerprintOf(mutate(cart, index, delta))).not.toBe(fingerprintOf(cart));
      }),
      { numRuns: 300 },
    );
  });

  it("changes with a customer-facing fee and leaves an empty cart without a quote", () => {
    fc.assert(
      fc.property(cartArb, (cart) => {
        const dearerService = { ...location, fees: { ...fees, serviceFeeFixMinor: fees.serviceFeeFixMinor + 25 } };
        expect(fingerprintOf(cart, now, dearerService)).not.toBe(fingerprintOf(cart));
        expect(fingerprintOf({ ...cart, lines: [] })).toBeNull();
      }),
    );
  });
});

/**
 * The fingerprint as it was first written: the lines' texts as an array of strings, sorted, inside
 * canonical JSON. Stored quotes and payment intents carry fingerprints made this way, so every later
 * way of making it must give the same digest.
 */
function referenceFingerprint(cart: Parameters<typeof quoteFingerprintOf>[0], priced: PricedCart): string {
  const unitPriceById = new Map(priced.lines.map((line) => [line.lineId, line.unitPriceMinor]));
  const lines = cart.lines
    .map((line) =>
      JSON.stringify({
        productId: line.productId,
        quantity: line.quantity,
        unitPriceMinor: unitPriceById.get(line.id) ?? 0,
        selections: line.selections.map((s) => `${s.modifierGroupId}/${s.optionId}x${s.quantity}@${s.priceMinor}`).sort(),
      }),
    )
    .sort();
  const courier = cart.deliveryQuote ? { feeMinor: cart.deliveryQuote.feeMinor, taxMinor: cart.deliveryQuote.taxMinor, tipMinor: cart.deliveryQuote.courierTipMinor } : null;
  const { subTotalWithoutDiscount, discountTotal, subTotal, waiterTipTotal, courierTipTotal, taxTotal, serviceFeeTotal, fulfillmentMethodFeeTotal, orderTotal, orderTotalWithServiceFee } = priced;
  return fingerprint({
    currency: cart.currency,
    fulfilmentMethod: cart.fulfilmentMethod,
    orderTime: cart.pickupType === "LATER" ? `LATER ${cart.orderDate} ${cart.orderTime}` : "ASAP",
    lines,
    courier,
    totals: { subTotalWithoutDiscount, discountTotal, subTotal, waiterTipTotal, courierTipTotal, taxTotal, serviceFeeTotal, fulfillmentMethodFeeTotal, orderTotal, orderTotalWithServiceFee },
  });
}

describe("quote fingerprint (the digest stored quotes were made with)", () => {
  // Any text in the ids: quotes, backslashes, control characters and lone surrogates must be escaped as
  // before, and sorted as before (escaping moves '"' after '#', so the order is of the texts, not their JSON).
  const anyText = fc.oneof(fc.string({ unit: fc.constantFrom('"', "\\", "#", "a", "\u0001", "\ud800", "é", "~"), maxLength: 3 }), fc.string({ unit: "binary", maxLength: 10 }));
  const textLineArb = fc.record({
    productId: anyText,
    quantity: fc.integer({ min: 1, max: 20 }),
    selections: fc.array(fc.record({ modifierGroupId: anyText, optionId: anyText, quantity: fc.integer({ min: 1, max: 3 }), priceMinor: fc.integer({ min: 0, max: 500 }) }), { maxLength: 3 }),
  });

  it("is the reference digest for any lines, whatever order the priced lines come in", () => {
    fc.assert(
      fc.property(cartArb, fc.array(textLineArb, { maxLength: 5 }), fc.boolean(), (cart, extra, reversePriced) => {
        const lines = [
          ...cart.lines,
          ...extra.map((line, index): CartLine => ({
            ...line,
            id: `li_x${index}`,
            selections: line.selections.map((selection) => ({ ...selection, modifierGroupName: "", optionName: "" })),
            name: "",
            description: "",
            imageUrl: "",
            categoryId: "cat",
            basePriceMinor: 100 + index,
            specialInstructions: "",
            itemUnavailableAction: "remove_item",
          })),
        ];
        const { priced } = repriceCart({ ...cart, lines }, location, now);
        const shuffled = { ...priced, lines: reversePriced ? [...priced.lines].reverse() : priced.lines };
        const subject = { ...cart, lines, deliveryQuote: cart.deliveryQuote };
        expect(quoteFingerprintOf(subject, shuffled)).toBe(referenceFingerprint(subject, shuffled));
        // And again from the texts kept with the line objects.
        expect(quoteFingerprintOf(subject, shuffled)).toBe(referenceFingerprint(subject, shuffled));
      }),
    );
  });
});
