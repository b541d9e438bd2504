import { z } from "zod";
import { MAX_SAFE, currencySchema, dateTime, decimalString, fulfilmentMethodSchema, identifier, jsonInteger, orderNumberSchema, readyAtSchema } from "./common";

const counter = z.number().int().min(0).max(MAX_SAFE);
const fingerprintHex = z.string().regex(/^[0-9a-f]{64}$/, "must be the cart's quoteFingerprint (64 lowercase hex characters)");
const upperCurrency = z.string().regex(/^[A-Z]{3}$/);
const minorAmount = z.strictObject({ amount: counter, currency: upperCurrency });

export const paymentSessionSchema = z
  .strictObject({
    provider: z.literal("CARDPROCESSOR"),
    clientSecret: z.string().meta({ description: "Confirm the payment with it in the browser (Stripe.js). Never put it in a URL." }),
    quote: z.strictObject({
      revision: z.string().meta({ description: "The cart's quoteFingerprint this session charges; send it back as quoteFingerprint when reporting the payment." }),
      total: minorAmount.meta({ description: "What will be charged, in minor units: the cart's orderTotalWithServiceFeeAmount." }),
      tip: minorAmount.meta({ description: "The gratuity included in the total (waiter tip plus courier tip), in minor units." }),
    }),
  })
  .meta({ id: "PaymentSession" });

export type PaymentSessionView = z.infer<typeof paymentSessionSchema>;

export const paymentConfigSchema = z
  .strictObject({
    processor: z.enum(["simulated", "stripe"]).meta({ description: "Who confirms card payments: the embedded simulated processor, or Stripe." }),
    publishableKey: z
      .string()
      .nullable()
      .meta({
        description:
          "Stripe publishable key for Stripe.js and the Payment Element, or null: then confirm on the server by reporting the payment with a test paymentMethodId (pm_card_visa, pm_card_chargeDeclined, pm_card_authenticationRequired).",
      }),
  })
  .meta({ id: "PaymentConfig" });

export type PaymentConfigView = z.infer<typeof paymentConfigSchema>;

export const orderResultStatuses = ["payment_pending", "order_pending", "completed", "failed"] as const;

export const orderResultSchema = z
  .strictObject({
    status: z.enum(orderResultStatuses).meta({ description: "Only `completed` means success. `payment_pending` and `order_pending`: poll again after pollAfterMs." }),
    orderId: identifier.optional(),
    receiptId: identifier.optional(),
    receiptToken: z
      .string()
      .optional()
      .meta({ description: "Receipt capability for GET /receipts/{receiptId} (header X-Receipt-Token). Only on completion and only to the cart's own X-Cart-Token." }),
    failure: z
      .strictObject({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: "Why the last payment failed (e.g. card_declined, authentication_required; order_not_placed when the order could not be stored, so the card was not charged and its authorisation was released; quote_not_payable when a confirmation the server could not send in time was never sent, as the cart's quote could no longer be paid). The cart is OPEN again: pay with another card; after order_not_placed another card meets the same refusal until the restaurant fixes its cause." }),
    pollAfterMs: z.number().int().min(0).optional().meta({ description: "While pending: how long to wait before polling again (also sent as Retry-After, in seconds)." }),
  })
  .meta({ id: "OrderResult" });

export type OrderResultView = z.infer<typeof orderResultSchema>;

export const paymentBodySchema = {
  quoteFingerprint: fingerprintHex.meta({ description: "The quote being paid (the payment session's quote.revision). A different or expired quote is 409 REQUOTE_REQUIRED." }),
  paymentMethodId: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9_]+$/)
    .optional()
    .meta({
      description:
        "Confirm on the server with this payment method (e.g. the simulated processor's pm_card_visa, pm_card_chargeDeclined, pm_card_authenticationRequired). Omit it after confirming in the browser with Stripe.js.",
    }),
};

export const RATING_COMMENT_MAX_LENGTH = 1000;

export const ratingBodySchema = {
  rating: jsonInteger(1, 5).meta({ description: "1 (worst) to 5 (best)." }),
  comment: z.string().max(RATING_COMMENT_MAX_LENGTH).optional(),
};

export const ratingSchema = z
  .strictObject({ orderId: identifier, rating: z.number().int().min(1).max(5), comment: z.string().nullable(), createdAt: dateTime })
  .meta({ id: "Rating" });

export type RatingView = z.infer<typeof ratingSchema>;

const money = <K extends string>(name: K) => ({ [name]: decimalString, [`${name}Formatted`]: z.string() }) as Record<K | `${K}Formatted`, z.ZodString>;

export const receiptTotalNames = [
  "subTotalWithoutDiscount",
  "discountTotal",
  "subTotal",
  "taxTotal",
  "serviceFeeTotal",
  "fulfillmentMethodFeeTotal",
  "waiterTipTotal",
  "courierTipTotal",
  "orderTotal",
  "orderTotalWithServiceFee",
] as const;

export const receiptSchema = z
  .strictObject({
    id: identifier,
    orderId: identifier,
    orderNumber: orderNumberSchema,
    placedAt: dateTime,
    readyAt: readyAtSchema,
    currency: currencySchema,
    merchant: z.strictObject({ id: identifier, displayName: z.string(), statementDescriptor: z.string() }),
    location: z.strictObject({
      id: identifier,
      displayName: z.string(),
      street: z.string(),
      city: z.string(),
      state: z.string(),
      zipCode: z.string(),
      country: z.string(),
      phone: z.string(),
      timeZone: z.string(),
    }),
    fulfilment: z.strictObject({
      method: fulfilmentMethodSchema,
      pickupType: z.enum(["ASAP", "LATER"]),
      orderDate: z.string(),
      orderTime: z.string(),
      deliveryAddress: z.string().nullable(),
      tableNumber: z.string().nullable(),
      roomNumber: z.string().nullable(),
    }),
    lines: z.array(
      z.strictObject({
        productId: identifier,
        name: z.string(),
        quantity: counter,
        ...money("unitPrice"),
        ...money("total"),
        ...money("discount"),
        selections: z.array(z.strictObject({ groupName: z.string(), optionName: z.string(), quantity: counter, ...money("price") })),
        specialInstructions: z.string(),
      }),
    ),
    totals: z.strictObject(Object.assign({}, ...receiptTotalNames.map((name) => money(name))) as Record<(typeof receiptTotalNames)[number] | `${(typeof receiptTotalNames)[number]}Formatted`, z.ZodString>),
    discountCode: z.string().nullable(),
    payment: z.strictObject({
      provider: z.literal("CARDPROCESSOR"),
      brand: z.string().nullable(),
      last4: z.string().regex(/^\d{4}$/).nullable(),
      ...money("amount"),
      paidAt: dateTime,
    }),
  })
  .meta({ id: "Receipt" });

export type ReceiptView = z.infer<typeof receiptSchema>;
