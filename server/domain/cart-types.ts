import type { FulfilmentMethod } from "./catalog-types";
import type { Minor } from "./money";

export type { FulfilmentMethod };
export const cartStatuses = ["OPEN", "LOCKED", "COMPLETED", "EXPIRED"] as const;
export type CartStatus = (typeof cartStatuses)[number];
export type PickupType = "ASAP" | "LATER";

export type LineSelection = {
  modifierGroupId: string;
  modifierGroupName: string;
  optionId: string;
  optionName: string;
  quantity: number;
  /** Catalog price of one unit of the option when the line was last priced. */
  priceMinor: Minor;
};

/** A cart line as stored: what was ordered plus the catalog facts it was priced with. */
export type CartLine = {
  id: string;
  productId: string;
  name: string;
  description: string;
  imageUrl: string;
  categoryId: string;
  quantity: number;
  basePriceMinor: Minor;
  selections: LineSelection[];
  specialInstructions: string;
  itemUnavailableAction: "remove_item";
};

/** Terms of a discount copied onto the cart when applied, so pricing needs no extra lookup. */
export type AppliedDiscount = { code: string; rate: string | null; amountMinor: Minor | null; minimumSubtotalMinor: Minor };

export type GratuityChoice = { kind: "rate"; rate: string } | { kind: "amount"; amountMinor: Minor };

export type PricedLine = { lineId: string; unitPriceMinor: Minor; totalMinor: Minor; discountMinor: Minor };

/** Every total of the Cart in minor units, plus the fee rates it was computed with. */
export type PricedCart = {
  lines: PricedLine[];
  subTotalWithoutDiscount: Minor;
  discountTotal: Minor;
  subTotal: Minor;
  waiterTipTotal: Minor;
  courierTipTotal: Minor;
  taxTotal: Minor;
  serviceFeeTotal: Minor;
  fulfillmentMethodFeeTotal: Minor;
  taxAndFeeTotal: Minor;
  paymentProcessingFeeTotal: Minor;
  enterpriseFeeTotal: Minor;
  applicationFeeTotal: Minor;
  netSalesTotal: Minor;
  orderTotal: Minor;
  orderTotalWithServiceFee: Minor;
  totalQuantity: number;
  fees: {
    enterpriseFeeRate: string;
    enterpriseFeeFixMinor: Minor;
    serviceFeeRate: string;
    serviceFeeFixMinor: Minor;
    taxRate: string;
    tipRate: string;
    fulfillmentMethodFeeFixMinor: Minor;
    fulfillmentMethodFeeRate: string;
    paymentProcessingFeeRate: string;
    paymentProcessingFeeFixMinor: Minor;
  };
};
