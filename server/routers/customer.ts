import { z } from "zod";
import { cartSchema } from "../schemas/cart";
import { etagResponseHeaders, fulfilmentMethodSchema, locationIdParam, pathId } from "../schemas/common";
import {
  customerAddressesSchema,
  customerOrdersPageSchema,
  customerSchema,
  customerSessionSchema,
  deletedSavedPaymentSchema,
  ledgerQuery,
  loginBody,
  loginChallengeSchema,
  logoutSchema,
  loyaltyLedgerSchema,
  ordersQuery,
  phoneConfirmationBody,
  phoneVerificationBody,
  phoneVerificationSchema,
  savedPaymentsSchema,
  verifyOtpBody,
} from "../schemas/customer";
import { createCustomerCart } from "../services/customers/carts";
import { readLoyaltyLedger } from "../services/customers/loyalty";
import { listCustomerAddresses, listCustomerOrders } from "../services/customers/orders";
import { confirmPhoneVerification, startPhoneVerification } from "../services/customers/phone-verification";
import { getCustomerProfile } from "../services/customers/profile";
import { deleteSavedPayment, listSavedPayments } from "../services/customers/saved-payments";
import { logout } from "../services/customers/sessions";
import { login, verifyOtp } from "../services/customers/sign-in";
import { locationReadAhead } from "../services/locations";
import { router } from "../trpc/init";
import { committingWrite, readProcedure, transactionalWrite } from "../trpc/procedures";
import { responseSchema } from "../trpc/response-validation";
import { anonymousWriteMeta, customerReadMeta, customerWriteMeta, type OperationTag } from "./meta";

const authTags: OperationTag[] = ["Customer authentication"];
const tags: OperationTag[] = ["Customer"];

const CODE_RULES =
  "Codes are 6 digits, expire after OTP_TTL_MINUTES (10) and work once; a new code replaces the previous one (for phone verification, the same customer's previous one: another customer asking for the number cancels no one's code). A code allows OTP_MAX_ATTEMPTS (5) wrong tries, then it is dead even for the right code. Per identifier (across IPs and instances): at most OTP_MAX_CHALLENGES_PER_HOUR (5) codes and OTP_MAX_FAILURES_PER_HOUR (10) wrong codes per hour, else 429 RATE_LIMITED with Retry-After.";

const CODE_ERRORS =
  "A wrong code is 401 UNAUTHORIZED (`details.attemptsRemaining`); an expired, used, replaced or exhausted code is 401 UNAUTHORIZED saying to request a new one.";

/**
 * Customer sign-in and the signed-in customer's data. Every procedure is also on the typed RPC
 * client as `customer.<name>`; the storefront signs in with `customer.login` then
 * `customer.verifyOtp`, keeps the token per merchant (never in a URL), and sends it as
 * `Authorization: Bearer <token>`.
 */
export const customerRouter = router({
  login: transactionalWrite(
    anonymousWriteMeta(
      {
        method: "POST",
        path: "/customer/auth/login",
        tags: authTags,
        summary: "Send a one-time sign-in code to an e-mail address or phone number",
        description: `Starts sign-in at one merchant. The answer, its status and its timing are the same whether or not a customer with this identifier exists (the customer is created when the code is proven). \`delivery\` is \`email\` for an e-mail address and \`sms\` for a phone number; a phone number is refused (400) when the service has no SMS transport (SMTP configured). An idempotent replay answers the same methodId and sends nothing. ${CODE_RULES}`,
      },
      [400, 404, 409, 429, 500],
    ),
    { input: z.strictObject(loginBody), output: loginChallengeSchema },
    ({ ctx, input }) => login(ctx, input),
  ),

  verifyOtp: committingWrite(
    anonymousWriteMeta(
      {
        method: "POST",
        path: "/customer/auth/verify-otp",
        tags: authTags,
        summary: "Prove the one-time code: answers a merchant-bound customer token",
        description: `Send the same merchantSlug and identifierString as the login, its methodId and the code. The answer is \`{ token, customer }\`: the token is a customer JWT bound to this merchant (valid CUSTOMER_SESSION_TTL_HOURS, 30 days, unless signed out), sent as \`Authorization: Bearer <token>\`. Customers are per merchant: the same e-mail address at two merchants is two customers. Optional profile fields (customerName, lastName, phoneNumber) are saved once the code is proven. ${CODE_ERRORS} ${CODE_RULES}`,
      },
      [400, 401, 404, 409, 429, 500],
      ["RESOURCE_CONFLICT"],
    ),
    { input: z.strictObject(verifyOtpBody), output: customerSessionSchema },
    ({ ctx, input }) => verifyOtp(ctx, input),
  ),

  logout: transactionalWrite(
    customerWriteMeta(
      {
        method: "DELETE",
        path: "/customer/logout",
        tags: authTags,
        summary: "Sign out: revokes the session at once",
        description:
          "From the next request on, the token is refused with 401 everywhere. A change under way for this session that runs in one transaction (a cart change, say) commits before the logout answers, never after; one that reaches its commit later is refused with 401. A write that acts at the card processor before it commits (a payment session, a payment, removing a saved card) is checked before that call and recorded whatever happens to the session during it, since its effect has taken place; one that only asks the courier for a quote first (setting a delivery address) is refused with 401 at its commit, like a one-transaction write. A retry with the same Idempotency-Key replays the answer.",
      },
      [400, 401, 409, 429, 500, 503],
    ),
    { input: z.object({}), output: logoutSchema },
    ({ ctx }) => logout(ctx),
    { sessionLock: "update" },
  ),

  get: readProcedure(customerReadMeta({ method: "GET", path: "/customer", tags, summary: "The signed-in customer's profile" }))
    .input(z.object({}))
    .output(responseSchema(customerSchema))
    .query(({ ctx }) => getCustomerProfile(ctx)),

  orders: readProcedure(
    customerReadMeta({
      method: "GET",
      path: "/customer/orders",
      tags,
      summary: "The customer's orders, newest first, with receipt ids",
      description: "Paid orders of this customer (orders paid while signed in). Paginated: pass `nextCursor` as `cursor` for the next page. Each order's receipt opens at GET /receipts/{receiptId} with the same bearer token.",
    }),
  )
    .input(z.object(ordersQuery))
    .output(responseSchema(customerOrdersPageSchema))
    .query(({ ctx, input }) => listCustomerOrders(ctx, input)),

  addresses: readProcedure(
    customerReadMeta({
      method: "GET",
      path: "/customer/addresses",
      tags,
      summary: "Delivery addresses remembered from the customer's orders",
      description: "DeliveryAddress objects, most recently used first, each address once (compared by its written parts, ignoring case and spacing); at most 20. Ready to send to PUT .../set-delivery.",
    }),
  )
    .input(z.object({}))
    .output(responseSchema(customerAddressesSchema))
    .query(({ ctx }) => listCustomerAddresses(ctx)),

  savedPayments: readProcedure(
    customerReadMeta({
      method: "GET",
      path: "/customer/saved-payments",
      tags,
      summary: "Cards saved at the card processor for this customer",
      description:
        "Cards are saved by paying while signed in. Brand, last 4 digits and expiry only. With Stripe configured they are the Stripe customer's card payment methods; with the simulated processor, those of its in-memory ledger (lost on restart).",
    }),
  )
    .input(z.object({}))
    .output(responseSchema(savedPaymentsSchema))
    .query(({ ctx }) => listSavedPayments(ctx)),

  deleteSavedPayment: committingWrite(
    customerWriteMeta(
      {
        method: "DELETE",
        path: "/customer/saved-payments/{paymentId}",
        tags,
        summary: "Remove a saved card",
        description: "Detaches the card from the customer at the card processor. A card that is not one of this customer's (including another customer's) is 404.",
      },
      [400, 401, 404, 409, 429, 500, 503],
    ),
    { input: z.object({ paymentId: pathId.meta({ param: { description: "The saved card's id: `paymentMethods[].id` of GET /customer/saved-payments." } }) }), output: deletedSavedPaymentSchema },
    ({ ctx, input }) => deleteSavedPayment(ctx, input.paymentId),
  ),

  loyaltyLedger: readProcedure(
    customerReadMeta({
      method: "GET",
      path: "/customer/locations/{locationId}/loyalty/ledger",
      tags,
      summary: "Loyalty points earned and the balance",
      description:
        "The merchant's programme: every completed order paid while signed in earns `pointsPerUnit` points per whole currency unit of its subTotal. Entries are append-only (one per order), newest first and paginated; `balance` is their sum across all the merchant's locations. A location of another merchant than the session's is 403.",
    }, [400, 401, 403, 404, 429, 500, 503]),
  )
    .input(z.object(ledgerQuery))
    .output(responseSchema(loyaltyLedgerSchema))
    .query(({ ctx, input }) => readLoyaltyLedger(ctx, input)),

  startPhoneVerification: transactionalWrite(
    customerWriteMeta(
      {
        method: "POST",
        path: "/customer/phone-verification",
        tags,
        summary: "Send a verification code by SMS to a phone number",
        description: `The number is normalised to E.164 (a number without a country code is read in the merchant's country). A number already verified by another customer of this merchant is 409 RESOURCE_CONFLICT; the customer's own verified number is 409 too. Refused (400) when the service has no SMS transport. ${CODE_RULES}`,
      },
      [400, 401, 404, 409, 429, 500, 503],
      { conflicts: ["RESOURCE_CONFLICT"] },
    ),
    { input: z.strictObject(phoneVerificationBody), output: phoneVerificationSchema },
    ({ ctx, input }) => startPhoneVerification(ctx, input),
  ),

  confirmPhoneVerification: committingWrite(
    customerWriteMeta(
      {
        method: "POST",
        path: "/customer/phone-verification/confirmation",
        tags,
        summary: "Prove the SMS code: the number becomes the customer's verified number",
        description: `Answers \`{ token, customer }\` with phoneNumberVerified true; the token is a fresh one for the same session (the one sent stays valid). The code works only for the customer who requested it. ${CODE_ERRORS}`,
      },
      [400, 401, 404, 409, 429, 500, 503],
      { conflicts: ["RESOURCE_CONFLICT"] },
    ),
    { input: z.strictObject(phoneConfirmationBody), output: customerSessionSchema },
    ({ ctx, input }) => confirmPhoneVerification(ctx, input),
  ),

  createCart: transactionalWrite(
    customerWriteMeta(
      {
        method: "POST",
        path: "/locations/{locationId}/carts",
        tags: ["Carts"],
        summary: "Create a cart owned by the signed-in customer",
        description:
          "Like the ordering session, but the cart belongs to the customer: there is no cartAccessToken, the bearer token is the cart's credential for every cart and checkout operation, and the paid order (with its receipt and loyalty points) is the customer's. The location must belong to the session's merchant (else 403).",
      },
      [400, 401, 403, 404, 409, 429, 500, 503],
      { successStatus: 201, responseHeaders: etagResponseHeaders },
    ),
    { input: z.strictObject({ locationId: locationIdParam, fulfillmentMethod: fulfilmentMethodSchema, marketplaceId: z.string().min(1).max(128).optional() }), output: z.strictObject({ cart: cartSchema }) },
    ({ ctx, input }) => createCustomerCart(ctx, input),
    { alongsideClaim: (tx, input) => locationReadAhead.send(tx, input.locationId) },
  ),
});
