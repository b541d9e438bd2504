import { z } from "zod";
import { permittedActions, reasonCodes } from "../domain/revalidation";
import { MAX_SAFE, currencySchema, dateTime, decimalString, fulfilmentMethodSchema, identifier, jsonInteger, jsonNumber, localDate, localTime, locationIdParam, cartIdParam, nonNegativeDecimal } from "./common";

const counter = z.number().int().min(0).max(MAX_SAFE);
const positiveRevision = z.number().int().min(1).max(MAX_SAFE);
const fingerprintHex = z.string().regex(/^[0-9a-f]{64}$/);

export const reasonCodeSchema = z.enum(reasonCodes);

export const permittedActionSchema = z.enum(permittedActions);

const revisionSet = z.strictObject({
  cartRevision: counter,
  catalogPublicationRevision: positiveRevision.nullable(),
  resolvedCatalogSnapshotRevision: positiveRevision.nullable(),
  commercePolicyRevision: counter,
  providerBindingRevision: positiveRevision.nullable(),
});

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const changeSetSchema = z.strictObject({
  version: z.literal(1),
  previous: revisionSet,
  current: revisionSet,
  reasonCodes: z.array(reasonCodeSchema),
  changes: z.array(
    z.strictObject({
      reason: reasonCodeSchema,
      cartItemId: identifier.nullable(),
      canonicalEntityId: identifier.nullable(),
      path: z.string().min(1),
      before: scalar,
      after: scalar,
      permittedActions: z.array(permittedActionSchema),
    }),
  ),
  blocking: z.boolean(),
  reconfirmationRequired: z.boolean(),
  invalidatedEvidence: z.strictObject({ quote: z.boolean(), benefits: z.boolean(), paymentAuthorization: z.boolean() }),
});

export const catalogRevalidationSchema = z.strictObject({
  required: z.boolean(),
  reasonCodes: z.array(reasonCodeSchema),
  changeSet: changeSetSchema,
  checkedAt: dateTime,
  acknowledgedAt: dateTime.nullable(),
});

export const authorityContextSchema = z.strictObject({
  version: z.literal(1),
  organizationId: identifier,
  locationId: identifier,
  profile: z.enum(["platform_commerce", "pos_routed", "provider_checkout"]),
  cartId: identifier,
  cartRevision: counter,
  catalogPublicationRevision: positiveRevision.nullable(),
  resolvedCatalogSnapshotRevision: positiveRevision.nullable(),
  commercePolicyRevision: counter,
  providerBindingRevision: positiveRevision.nullable(),
  authority: z.strictObject({
    operationalCatalog: z.enum(["platform", "provider"]),
    quote: z.enum(["platform", "provider"]),
    payment: z.enum(["cardprocessor", "provider"]),
    refund: z.enum(["cardprocessor", "provider"]),
    benefits: z.enum(["platform_lip", "provider", "none"]),
    orderRouting: z.enum(["platform", "provider"]),
    fulfillment: z.enum(["platform", "provider"]),
  }),
});

export const deliveryAddressSchema = z
  .strictObject({
    street: z.string().min(1).max(200),
    city: z.string().min(1).max(100),
    state: z.string().min(1).max(100),
    zipCode: z.string().min(1).max(20),
    country: z.enum(["United States", "United Arab Emirates", "Australia", "United Kingdom"]),
    lat: jsonNumber(-90, 90),
    lng: jsonNumber(-180, 180),
    streetOptional: z.string().max(200).default(""),
  })
  .meta({ id: "DeliveryAddress" });

export const deliveryQuoteSchema = z.strictObject({
  provider: z.literal("PARTNER_DRIVE"),
  externalDeliveryId: z.string(),
  quoteFingerprint: fingerprintHex,
  feeMinor: counter,
  taxMinor: counter,
  courierTipMinor: counter,
  currency: z.string(),
  quotedAt: dateTime,
  expiresAt: dateTime,
  pickupEstimatedAt: dateTime.optional(),
  dropoffEstimatedAt: dateTime.optional(),
  status: z.string().optional(),
  trackingUrl: z.url().optional(),
  supportReference: z.string().optional(),
});

const money = (name: string) => ({ [name]: decimalString, [`${name}Formatted`]: z.string() });

export const cartSelectionSchema = z.strictObject({
  modifierGroupId: identifier,
  modifierGroupName: z.string(),
  optionId: identifier,
  optionName: z.string(),
  quantity: counter,
  price: decimalString,
  priceFormatted: z.string(),
});

export const cartItemSchema = z
  .strictObject({
    id: identifier,
    productId: identifier,
    name: z.string(),
    description: z.string(),
    imageUrl: z.string(),
    price: decimalString,
    priceFormatted: z.string(),
    total: decimalString,
    totalFormatted: z.string(),
    discount: decimalString,
    discountFormatted: z.string(),
    quantity: counter,
    categoryId: z.string(),
    itemUnavailableAction: z.literal("remove_item"),
    selections: z.array(cartSelectionSchema),
    specialInstructions: z.string(),
    product: z.strictObject({ id: identifier, name: z.string(), price: decimalString }),
  })
  .meta({ id: "CartItem", description: "price is the unit price including selected options; total = price x quantity, before discount." });

/** The Cart's money totals: each a decimal string of the PricedCart total of the same name, with its Formatted twin. */
export const cartTotalNames = [
  "subTotal",
  "discountTotal",
  "waiterTipTotal",
  "taxTotal",
  "taxAndFeeTotal",
  "serviceFeeTotal",
  "paymentProcessingFeeTotal",
  "applicationFeeTotal",
  "netSalesTotal",
  "fulfillmentMethodFeeTotal",
  "orderTotal",
  "orderTotalWithServiceFee",
  "enterpriseFeeTotal",
  "subTotalWithoutDiscount",
] as const;

const totalsShape = Object.fromEntries(cartTotalNames.flatMap((name) => Object.entries(money(name)))) as Record<
  (typeof cartTotalNames)[number] | `${(typeof cartTotalNames)[number]}Formatted`,
  z.ZodString
>;

export const feesSchema = z.strictObject({
  enterpriseFeeRate: decimalString,
  enterpriseFeeFix: decimalString,
  serviceFeeRate: decimalString,
  serviceFeeFix: decimalString,
  taxRate: decimalString,
  tipRate: decimalString,
  fulfillmentMethodFeeFix: decimalString,
  fulfillmentMethodFeeRate: decimalString,
  paymentProcessingFeeRate: decimalString,
  paymentProcessingFeeFix: decimalString,
});

export const cartSchema = z
  .strictObject({
    id: identifier,
    locationId: identifier,
    merchantId: identifier,
    status: z.enum(["OPEN", "LOCKED", "COMPLETED", "EXPIRED"]),
    lockedAt: dateTime.nullable().optional(),
    revision: counter,
    expiresAt: dateTime,
    authorityContext: authorityContextSchema.nullable(),
    quoteFingerprint: fingerprintHex
      .nullable()
      .meta({ description: "Names the quote: the lines, every total the customer pays, and when the order is for (pickupType, orderDate, orderTime). It stays the same through changes that leave those alone; null for an empty cart. POST .../payments repeats it." }),
    quoteExpiresAt: dateTime.nullable(),
    catalogRevalidation: catalogRevalidationSchema.nullable(),
    restaurantDisplayName: z.string(),
    fulfilmentMethod: fulfilmentMethodSchema,
    fulfillmentIdentifier: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    pickupType: z.enum(["ASAP", "LATER"]),
    orderDate: z.string(),
    orderTime: z.string(),
    currency: currencySchema,
    ...totalsShape,
    courierTipTotal: decimalString.optional(),
    courierTipTotalFormatted: z.string().optional(),
    orderTotalWithServiceFeeAmount: counter,
    discountCode: z.string().optional(),
    statementDescriptor: z.string(),
    totalQuantity: counter,
    items: z.array(cartItemSchema),
    fees: feesSchema,
    deliveryInfo: z.looseObject({ addressString: z.string(), addressData: deliveryAddressSchema }).nullable().optional(),
    deliveryQuote: deliveryQuoteSchema.nullable().optional(),
    tableServiceInfo: z.looseObject({ tableNumber: z.string().optional() }).nullable().optional(),
    roomServiceInfo: z.looseObject({ lastName: z.string().optional(), roomNumber: z.string().optional() }).nullable().optional(),
  })
  .meta({ id: "Cart" });

export type CartView = z.infer<typeof cartSchema>;

/** Path parameters of every cart-scoped operation. */
export const cartPath = { locationId: locationIdParam, cartId: cartIdParam };

export const selectionInputSchema = z.strictObject({
  modifierGroupId: identifier,
  optionId: identifier,
  quantity: jsonInteger(1, 99).optional(),
});

export const addItemBodySchema = {
  productId: identifier,
  quantity: jsonInteger(1, 9999).meta({ description: "1 to 9999; a line (this quantity plus what the cart already holds of the same configuration) holds at most CART_MAX_LINE_QUANTITY (99 by default) and the product's own limit: above either, 400 naming `quantity`." }),
  selections: z.array(selectionInputSchema).max(50),
  itemUnavailableAction: z.literal("remove_item").default("remove_item"),
  specialInstructions: z.string().max(500).optional(),
};

/**
 * Client-named amounts: a decimal string in the cart's currency with at most 2 fraction digits (every
 * supported currency has 2 minor digits) and at most 13 integer digits, so that no amount a client
 * can send is past 2^53 - 1 minor units before its policy bound is even checked. Trailing zeros do
 * not count: the spec's format is digits with an optional fraction, and "1.500" is exactly 1.50.
 */
export const clientAmount = z
  .string()
  .max(32)
  .regex(/^\d{1,13}(\.\d{1,2}0*)?$/, "must be a non-negative decimal with at most 13 integer digits and 2 fraction digits (trailing zeros aside)");

/** A rate from 0 to 1 with at most 6 fraction digits, as the location's rates are written. */
export const clientRate = z.string().max(8).regex(/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/, "must be a decimal from 0 to 1 with at most 6 fraction digits");

/** PUT .../gratuity: exactly one of rate or amount, each bounded by the location's gratuity policy. */
export const gratuityBodySchema = z
  .strictObject({
    rate: clientRate.optional().meta({
      description: 'Fraction of the subtotal before discount (e.g. "0.18"): 0 to 1 with at most 6 fraction digits, and at most the location\'s `maxRate` (GET /locations/{locationId}/gratuity); above it: 400 naming `rate`.',
    }),
    amount: clientAmount.optional().meta({
      description:
        'A fixed amount in the cart\'s currency (e.g. "5.00"), where the location allows custom amounts: at most 2 fraction digits (trailing zeros aside), and at most `maxRate` x `subTotalWithoutDiscount` of the cart (so 0 on an empty cart); above it: 400 naming `amount`. The waiter tip is capped by the same rule whenever the cart is priced, so removing lines later lowers it with them.',
    }),
  })
  .superRefine((body, issues) => {
    if ((body.rate === undefined) === (body.amount === undefined)) {
      issues.addIssue({ code: "custom", path: ["rate"], message: "send exactly one of rate or amount" });
    }
  });

export { localDate, localTime, nonNegativeDecimal };
