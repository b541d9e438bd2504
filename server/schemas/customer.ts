import { z } from "zod";
import { deliveryAddressSchema } from "./cart";
import { MAX_SAFE, currencySchema, dateTime, decimalString, fulfilmentMethodSchema, identifier, locationIdParam, orderNumberSchema, pageCursor, pageLimit, readyAtSchema } from "./common";

/** Request and response schemas of customer sign-in and customer data. */

const counter = z.number().int().min(0).max(MAX_SAFE);

export const merchantSlug = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-z0-9][a-z0-9-]*$/, "must be a merchant slug (lower-case letters, digits and hyphens)")
  .meta({ description: "The merchant to sign in to: the location's `merchant.slug`. Sessions are bound to this one merchant." });

export const identifierString = z
  .string()
  .min(3)
  .max(254)
  .meta({
    description:
      "An e-mail address (the code goes by e-mail) or a phone number (by SMS). Phone numbers in international form (+15551234567); a number without a country code is read in the merchant's country.",
  });

export const otpCode = z.string().regex(/^\d{6}$/, "must be the 6-digit code").meta({ description: "The 6-digit one-time code that was sent." });
export const methodId = identifier.meta({ description: "The `methodId` returned when the code was sent." });
const phoneNumberInput = z.string().min(3).max(32);

export const loginBody = { merchantSlug, identifierString };

export const verifyOtpBody = {
  merchantSlug,
  identifierString: identifierString.meta({ description: "The same identifier the code was sent to." }),
  methodId,
  otp: otpCode,
  customerName: z.string().trim().min(1).max(100).optional().meta({ description: "Optional profile field, saved once the code is proven." }),
  lastName: z.string().trim().min(1).max(100).optional().meta({ description: "Optional profile field, saved once the code is proven." }),
  phoneNumber: phoneNumberInput
    .optional()
    .meta({
      description:
        "Optional profile phone number, saved unverified (verify it with POST /customer/phone-verification). A customer whose number is already verified changes it only by verifying the new one: a different number here is 409.",
    }),
};

export const phoneVerificationBody = { phoneNumber: phoneNumberInput.meta({ description: "The number to verify; a code is sent to it by SMS." }) };
export const phoneConfirmationBody = { phoneNumber: phoneNumberInput.meta({ description: "The number the code was sent to." }), methodId, otp: otpCode };

export const customerSchema = z
  .strictObject({
    id: identifier,
    profilePicture: z.string(),
    customerEmail: z.string().meta({ description: "Empty for a customer who signed in by phone and gave no e-mail address." }),
    customerName: z.string(),
    lastName: z.string(),
    phoneNumber: z.string().meta({ description: "E.164, or empty." }),
    phoneNumberVerified: z.boolean(),
  })
  .meta({ id: "Customer" });

export type CustomerView = z.infer<typeof customerSchema>;

export const loginChallengeSchema = z
  .strictObject({
    methodId: z.string().meta({ description: "Send it back with the code to /customer/auth/verify-otp." }),
    delivery: z.enum(["email", "sms"]).meta({ description: "How the code was sent." }),
  })
  .meta({ id: "LoginChallenge" });

export type LoginChallengeView = z.infer<typeof loginChallengeSchema>;

export const customerSessionSchema = z
  .strictObject({
    token: z.string().meta({ description: "The merchant-bound customer JWT: send it as `Authorization: Bearer <token>`. Never put it in a URL." }),
    customer: customerSchema,
  })
  .meta({ id: "CustomerSession" });

export type CustomerSessionView = z.infer<typeof customerSessionSchema>;

export const phoneVerificationSchema = z.strictObject({ methodId: z.string() }).meta({ id: "PhoneVerificationChallenge" });

export const logoutSchema = z.strictObject({ loggedOut: z.literal(true) });

export const ordersQuery = {
  limit: pageLimit(20, 50).meta({ description: "Orders per page (1-50, default 20)." }),
  cursor: pageCursor,
};

const money = <K extends string>(name: K) => ({ [name]: decimalString, [`${name}Formatted`]: z.string() }) as Record<K | `${K}Formatted`, z.ZodString>;

export const customerOrderSchema = z
  .strictObject({
    id: identifier,
    receiptId: identifier.meta({ description: "Open it at GET /receipts/{receiptId} with the same bearer token." }),
    locationId: identifier,
    restaurantDisplayName: z.string(),
    orderNumber: orderNumberSchema,
    status: z.enum(["order_pending", "completed"]).meta({ description: "`completed` once the restaurant accepted the order." }),
    placedAt: dateTime,
    readyAt: readyAtSchema,
    fulfilmentMethod: fulfilmentMethodSchema,
    pickupType: z.enum(["ASAP", "LATER"]),
    orderDate: z.string(),
    orderTime: z.string(),
    currency: currencySchema,
    ...money("subTotal"),
    ...money("amountCharged"),
    totalQuantity: counter,
    lines: z.array(z.strictObject({ productId: identifier, name: z.string(), quantity: counter })),
  })
  .meta({ id: "CustomerOrder" });

export type CustomerOrderView = z.infer<typeof customerOrderSchema>;

export const customerOrdersPageSchema = z.strictObject({
  orders: z.array(customerOrderSchema),
  nextCursor: z.string().nullable().meta({ description: "Pass it as `cursor` for the next (older) page; null on the last page." }),
});

export const customerAddressesSchema = z.strictObject({
  addresses: z.array(deliveryAddressSchema).meta({ description: "Delivery addresses of the customer's orders, most recently used first, each once." }),
});

export const savedPaymentSchema = z
  .strictObject({
    id: identifier.meta({ description: "The card processor's payment method id." }),
    brand: z.string(),
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(9999),
  })
  .meta({ id: "SavedPayment" });

export const savedPaymentsSchema = z.strictObject({ paymentMethods: z.array(savedPaymentSchema) });
export const deletedSavedPaymentSchema = z.strictObject({ id: identifier, deleted: z.literal(true) });

export const ledgerQuery = {
  locationId: locationIdParam,
  limit: pageLimit(50, 100).meta({ description: "Entries per page (1-100, default 50)." }),
  cursor: pageCursor,
};

export const loyaltyLedgerSchema = z
  .strictObject({
    merchantId: identifier,
    pointsPerUnit: counter.meta({ description: "The merchant's rule: points per whole currency unit of an order's subTotal." }),
    balance: z.number().int().meta({ description: "Sum of all the customer's entries at this merchant." }),
    entries: z.array(
      z.strictObject({
        id: identifier,
        reason: z.enum(["order"]),
        points: z.number().int(),
        orderId: identifier.nullable(),
        locationId: identifier,
        createdAt: dateTime,
      }),
    ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "LoyaltyLedger" });

export type LoyaltyLedgerView = z.infer<typeof loyaltyLedgerSchema>;
