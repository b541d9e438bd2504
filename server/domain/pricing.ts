import type { FeePolicy } from "./catalog-types";
import type { CartLine, GratuityChoice, PricedCart } from "./cart-types";
import Big from "big.js";
import { allocateProportionally, applyRate, safeMinor, type Minor } from "./money";
import { pricedInOrder } from "./priced-lines";

/**
 * Prices a cart. Pure and deterministic: same input, same output.
 *
 * Rounding rule: every rate-based amount (discount, service fee, fulfilment fee, tax, gratuity,
 * enterprise fee, processing fee) is computed once on its order-level base and rounded half-up to a
 * whole minor unit. Line discounts are the order discount split by largest remainder, so they always
 * add up to it. Nothing is rounded twice.
 *
 *   line total            = (product price + sum(option price x option quantity)) x quantity
 *   subTotalWithoutDiscount = sum(line totals)
 *   discountTotal         = rate x subTotalWithoutDiscount, or a fixed amount; never above it
 *   subTotal              = subTotalWithoutDiscount - discountTotal            (also netSalesTotal)
 *   serviceFeeTotal       = serviceFeeRate x subTotal + serviceFeeFix
 *   fulfillmentMethodFee  = methodFeeRate x subTotal + methodFeeFix + courier fee
 *   taxTotal              = taxRate x subTotal + courier tax
 *   waiterTipTotal        = gratuity rate x subTotalWithoutDiscount, or a fixed amount; never above
 *                           gratuityMaxRate x subTotalWithoutDiscount (the location's policy)
 *   taxAndFeeTotal        = tax + service fee + fulfilment fee
 *   orderTotal            = subTotal + tax + fulfilment fee + waiter tip + courier tip
 *   orderTotalWithServiceFee = orderTotal + service fee                         (what is charged)
 *   enterpriseFeeTotal    = enterpriseFeeRate x subTotal + enterpriseFeeFix    (merchant-borne, = applicationFeeTotal)
 *   paymentProcessingFee  = rate x orderTotalWithServiceFee + fix               (merchant-borne estimate)
 *
 * An empty cart costs nothing: fixed fees apply only once there is something to sell.
 *
 * Every amount is checked with safeMinor as it is computed: an amount past 2^53 - 1 minor units is
 * a 400 naming the total (amountOverflow), never a rounded number that is stored and then fails.
 */
export type PricingInput = {
  lines: readonly CartLine[];
  discount: { rate: string } | { amountMinor: Minor } | null;
  fees: FeePolicy;
  fulfilmentFee: { feeFixMinor: Minor; feeRate: string };
  gratuity: GratuityChoice | null;
  /** The location's maximum gratuity rate; absent: "1" (a tip is never more than the subtotal before discount). */
  gratuityMaxRate?: string;
  courier: { feeMinor: Minor; taxMinor: Minor } | null;
  courierTipMinor: Minor;
};

/**
 * The unit price of a line: its product's price and every option's price times its quantity, each
 * step checked as safeMinor checks it. `field` names the amount if it is past 2^53 - 1: a line's index
 * stands for `items.<index>.price`, a name made only then (a 100-line cart prices every line on every change).
 */
export function lineUnitPrice(line: Pick<CartLine, "basePriceMinor" | "selections">, field: string | number = "price"): Minor {
  let sum = lineAmount(line.basePriceMinor, field, "price");
  for (const selection of line.selections) sum = lineAmount(sum + lineAmount(selection.priceMinor * selection.quantity, field, "price"), field, "price");
  return sum;
}

/** safeMinor, with a line's index standing for its field `items.<index>.<member>`. */
function lineAmount(value: number, field: string | number, member: "price" | "total"): Minor {
  return Number.isSafeInteger(value) ? value : safeMinor(value, typeof field === "number" ? `items.${field}.${member}` : field);
}

export function priceCart(input: PricingInput): PricedCart {
  const { fees } = input;
  const unitPrices = input.lines.map((line, index) => lineUnitPrice(line, index));
  const lineTotals = input.lines.map((line, index) => lineAmount((unitPrices[index] ?? 0) * line.quantity, index, "total"));
  const subTotalWithoutDiscount = sum(lineTotals, "subTotalWithoutDiscount");
  const isEmpty = subTotalWithoutDiscount === 0 && input.lines.length === 0;

  const discountTotal = Math.min(subTotalWithoutDiscount, safeMinor(discountAmount(input.discount, subTotalWithoutDiscount), "discountTotal"));
  const lineDiscounts = allocateProportionally(discountTotal, lineTotals);
  const subTotal = subTotalWithoutDiscount - discountTotal;

  const whenNotEmpty = (amount: Minor) => (isEmpty ? 0 : amount);
  const serviceFeeTotal = whenNotEmpty(sum([applyRate(subTotal, fees.serviceFeeRate), fees.serviceFeeFixMinor], "serviceFeeTotal"));
  const fulfillmentMethodFeeTotal = whenNotEmpty(
    sum([applyRate(subTotal, input.fulfilmentFee.feeRate), input.fulfilmentFee.feeFixMinor, input.courier?.feeMinor ?? 0], "fulfillmentMethodFeeTotal"),
  );
  const taxTotal = whenNotEmpty(sum([applyRate(subTotal, fees.taxRate), input.courier?.taxMinor ?? 0], "taxTotal"));
  const waiterTipTotal = whenNotEmpty(gratuityAmount(input.gratuity, subTotalWithoutDiscount, input.gratuityMaxRate ?? "1"));
  const courierTipTotal = whenNotEmpty(safeMinor(input.courierTipMinor, "courierTipTotal"));

  const taxAndFeeTotal = sum([taxTotal, serviceFeeTotal, fulfillmentMethodFeeTotal], "taxAndFeeTotal");
  const orderTotal = sum([subTotal, taxTotal, fulfillmentMethodFeeTotal, waiterTipTotal, courierTipTotal], "orderTotal");
  const orderTotalWithServiceFee = sum([orderTotal, serviceFeeTotal], "orderTotalWithServiceFee");
  const enterpriseFeeTotal = whenNotEmpty(sum([applyRate(subTotal, fees.enterpriseFeeRate), fees.enterpriseFeeFixMinor], "enterpriseFeeTotal"));
  const paymentProcessingFeeTotal = whenNotEmpty(
    sum([applyRate(orderTotalWithServiceFee, fees.paymentProcessingFeeRate), fees.paymentProcessingFeeFixMinor], "paymentProcessingFeeTotal"),
  );

  return pricedInOrder({
    lines: input.lines.map((line, index) => ({
      lineId: line.id,
      unitPriceMinor: unitPrices[index] ?? 0,
      totalMinor: lineTotals[index] ?? 0,
      discountMinor: lineDiscounts[index] ?? 0,
    })),
    subTotalWithoutDiscount,
    discountTotal,
    subTotal,
    waiterTipTotal,
    courierTipTotal,
    taxTotal,
    serviceFeeTotal,
    fulfillmentMethodFeeTotal,
    taxAndFeeTotal,
    paymentProcessingFeeTotal,
    enterpriseFeeTotal,
    applicationFeeTotal: enterpriseFeeTotal,
    netSalesTotal: subTotal,
    orderTotal,
    orderTotalWithServiceFee,
    totalQuantity: sum(input.lines.map((line) => line.quantity), "totalQuantity"),
    fees: {
      enterpriseFeeRate: fees.enterpriseFeeRate,
      enterpriseFeeFixMinor: fees.enterpriseFeeFixMinor,
      serviceFeeRate: fees.serviceFeeRate,
      serviceFeeFixMinor: fees.serviceFeeFixMinor,
      taxRate: fees.taxRate,
      tipRate: input.gratuity?.kind === "rate" ? input.gratuity.rate : "0",
      fulfillmentMethodFeeFixMinor: input.fulfilmentFee.feeFixMinor,
      fulfillmentMethodFeeRate: input.fulfilmentFee.feeRate,
      paymentProcessingFeeRate: fees.paymentProcessingFeeRate,
      paymentProcessingFeeFixMinor: fees.paymentProcessingFeeFixMinor,
    },
  }, input.lines);
}

function discountAmount(discount: PricingInput["discount"], base: Minor): Minor {
  if (discount === null) return 0;
  return "rate" in discount ? applyRate(base, discount.rate) : discount.amountMinor;
}

/** The chosen tip, capped by the policy's rate so that no rate or amount, and no later change of the lines, charges more. */
function gratuityAmount(gratuity: GratuityChoice | null, base: Minor, maxRate: string): Minor {
  if (gratuity === null) return 0;
  const cap = applyRate(base, maxRate);
  const chosen = gratuity.kind === "rate" ? applyRate(base, new Big(gratuity.rate).gt(maxRate) ? maxRate : gratuity.rate) : safeMinor(gratuity.amountMinor, "waiterTipTotal");
  return Math.min(chosen, cap);
}

/** Sum of minor amounts, each step checked: past MAX_MINOR is amountOverflow(field). */
function sum(values: readonly number[], field: string): number {
  return values.reduce((total, value) => safeMinor(total + safeMinor(value, field), field), 0);
}
