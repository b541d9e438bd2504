import type { FeePolicy } from "./catalog-types";
import type { CartLine, GratuityChoice, PricedCart } from "./cart-types";
import { allocateProportionally, applyRate, type Minor } from "./money";

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
 *   waiterTipTotal        = gratuity rate x subTotalWithoutDiscount, or a fixed amount
 *   taxAndFeeTotal        = tax + service fee + fulfilment fee
 *   orderTotal            = subTotal + tax + fulfilment fee + waiter tip + courier tip
 *   orderTotalWithServiceFee = orderTotal + service fee                         (what is charged)
 *   enterpriseFeeTotal    = enterpriseFeeRate x subTotal + enterpriseFeeFix    (merchant-borne, = applicationFeeTotal)
 *   paymentProcessingFee  = rate x orderTotalWithServiceFee + fix               (merchant-borne estimate)
 *
 * An empty cart costs nothing: fixed fees apply only once there is something to sell.
 */
export type PricingInput = {
  lines: readonly CartLine[];
  discount: { rate: string } | { amountMinor: Minor } | null;
  fees: FeePolicy;
  fulfilmentFee: { feeFixMinor: Minor; feeRate: string };
  gratuity: GratuityChoice | null;
  courier: { feeMinor: Minor; taxMinor: Minor } | null;
  courierTipMinor: Minor;
};

export function lineUnitPrice(line: Pick<CartLine, "basePriceMinor" | "selections">): Minor {
  return line.selections.reduce((sum, selection) => sum + selection.priceMinor * selection.quantity, line.basePriceMinor);
}

export function priceCart(input: PricingInput): PricedCart {
  const { fees } = input;
  const unitPrices = input.lines.map(lineUnitPrice);
  const lineTotals = input.lines.map((line, index) => (unitPrices[index] ?? 0) * line.quantity);
  const subTotalWithoutDiscount = sum(lineTotals);
  const isEmpty = subTotalWithoutDiscount === 0 && input.lines.length === 0;

  const discountTotal = Math.min(subTotalWithoutDiscount, discountAmount(input.discount, subTotalWithoutDiscount));
  const lineDiscounts = allocateProportionally(discountTotal, lineTotals);
  const subTotal = subTotalWithoutDiscount - discountTotal;

  const whenNotEmpty = (amount: Minor) => (isEmpty ? 0 : amount);
  const serviceFeeTotal = whenNotEmpty(applyRate(subTotal, fees.serviceFeeRate) + fees.serviceFeeFixMinor);
  const fulfillmentMethodFeeTotal = whenNotEmpty(
    applyRate(subTotal, input.fulfilmentFee.feeRate) + input.fulfilmentFee.feeFixMinor + (input.courier?.feeMinor ?? 0),
  );
  const taxTotal = whenNotEmpty(applyRate(subTotal, fees.taxRate) + (input.courier?.taxMinor ?? 0));
  const waiterTipTotal = whenNotEmpty(gratuityAmount(input.gratuity, subTotalWithoutDiscount));
  const courierTipTotal = whenNotEmpty(input.courierTipMinor);

  const taxAndFeeTotal = taxTotal + serviceFeeTotal + fulfillmentMethodFeeTotal;
  const orderTotal = subTotal + taxTotal + fulfillmentMethodFeeTotal + waiterTipTotal + courierTipTotal;
  const orderTotalWithServiceFee = orderTotal + serviceFeeTotal;
  const enterpriseFeeTotal = whenNotEmpty(applyRate(subTotal, fees.enterpriseFeeRate) + fees.enterpriseFeeFixMinor);
  const paymentProcessingFeeTotal = whenNotEmpty(
    applyRate(orderTotalWithServiceFee, fees.paymentProcessingFeeRate) + fees.paymentProcessingFeeFixMinor,
  );

  return {
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
    totalQuantity: sum(input.lines.map((line) => line.quantity)),
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
  };
}

function discountAmount(discount: PricingInput["discount"], base: Minor): Minor {
  if (discount === null) return 0;
  return "rate" in discount ? applyRate(base, discount.rate) : discount.amountMinor;
}

function gratuityAmount(gratuity: GratuityChoice | null, base: Minor): Minor {
  if (gratuity === null) return 0;
  return gratuity.kind === "rate" ? applyRate(base, gratuity.rate) : gratuity.amountMinor;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
