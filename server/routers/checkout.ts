import { z } from "zod";
import { cartPath } from "../schemas/cart";
import { orderResultSchema, paymentBodySchema, paymentConfigSchema, paymentSessionSchema, ratingBodySchema, ratingSchema } from "../schemas/checkout";
import { locationIdParam, pollResponseHeaders, privateResponseHeaders } from "../schemas/common";
import { getOrderResult } from "../services/checkout/order-result";
import { getPaymentConfig } from "../services/checkout/payment-config";
import { createPaymentSession } from "../services/checkout/payment-session";
import { reportPayment } from "../services/checkout/payments";
import { rateOrder } from "../services/checkout/rating";
import { router } from "../trpc/init";
import { committingCartMutation, committingWrite, readProcedure, transactionalWrite } from "../trpc/procedures";
import { responseSchema } from "../trpc/response-validation";
import { cartCheckoutMeta, cartMutationMeta, cartReadMeta, readMeta, type OperationTag } from "./meta";

const tags: OperationTag[] = ["Checkout"];

export const checkoutRouter = router({
  config: readProcedure(
    readMeta({
      method: "GET",
      path: "/locations/{locationId}/payment-config",
      tags,
      summary: "How card payments are taken at this location",
      description:
        "Public. `processor` is `stripe` when the service is configured with a Stripe secret key, else `simulated` (an embedded processor that knows Stripe's test payment methods). `publishableKey` is set only when Stripe is the processor and STRIPE_PUBLISHABLE_KEY is configured: confirm the payment session's clientSecret with Stripe.js, then report the payment. When it is null, report the payment with a paymentMethodId and the service confirms it.",
    }),
  )
    .input(z.object({ locationId: locationIdParam }))
    .output(responseSchema(paymentConfigSchema))
    .query(({ ctx, input }) => getPaymentConfig(ctx, input.locationId)),

  paymentSession: committingCartMutation(
    cartMutationMeta(
      {
      method: "POST",
      path: "/locations/{locationId}/carts/{cartId}/payment-session",
      tags,
      summary: "Create or recover the payment session for the cart's current quote",
      description:
        "Answers the client secret of the cart's one PaymentIntent, carrying exactly the quote's total (orderTotalWithServiceFeeAmount). Call it again after the cart changed: the same intent is amended. It does not change what the customer pays, but like every cart change it moves the revision: use the returned ETag next. Totals below the card processor's minimum charge (USD 0.50, GBP 0.30, AUD 0.50, AED 2.00), or above its largest (99,999,999 minor units, USD 999,999.99), are 409 RESOURCE_CONFLICT (BELOW_PROCESSOR_MINIMUM, ABOVE_PROCESSOR_MAXIMUM); a stale or expired quote is 409 REQUOTE_REQUIRED. So is an order time that cannot be served now (`details.reasons` has SCHEDULE_CLOSED): an ASAP cart while the location is closed or closes before the order would be ready, a LATER time that is no longer bookable, or a line whose menu is not served at the order's time (its blocker's `paths` name `items.N.servedAtOrderTime`); set a time from /time-intervals with PUT .../update-order-time, or remove the line, first. A discount code the location has withdrawn or changed since the cart applied it is 409 REQUOTE_REQUIRED with DISCOUNT_WITHDRAWN: remove it, or apply it again on its new terms.",
      },
      ["REQUOTE_REQUIRED", "RESOURCE_CONFLICT"],
    ),
    { input: z.strictObject({ ...cartPath }), output: paymentSessionSchema },
    ({ ctx, input }) => createPaymentSession(ctx, input),
  ),

  payments: committingWrite(
    cartCheckoutMeta(
      {
        method: "POST",
        path: "/locations/{locationId}/carts/{cartId}/payments",
        tags,
        summary: "Report the confirmed payment; answers the order result",
        description:
          "Send it after confirming the payment session in the browser, or with paymentMethodId to confirm on the server. The precondition is quoteFingerprint, not If-Match: a different or expired quote, or an unresolved blocking revalidation, is 409 REQUOTE_REQUIRED and nothing is charged. With paymentMethodId (confirmed on the server) so is an order time that cannot be served now (SCHEDULE_CLOSED: an ASAP cart while the location is closed or closes before the order would be ready, a LATER time no longer bookable, a line whose menu is not served then), or a discount code withdrawn or changed since it was applied (DISCOUNT_WITHDRAWN). Without it (confirmed in the browser) those were checked by the payment session before the card could be confirmed: the payment is settled as the customer confirmed it, exactly as the processor's webhook would settle it if it arrived first. The cart is LOCKED while the payment is settled; a declined card answers `failed` and the cart is OPEN again (new revision) for another card. Retrying never charges twice.",
      },
      pollResponseHeaders,
      { conflicts: ["CART_IMMUTABLE", "REQUOTE_REQUIRED", "RESOURCE_CONFLICT"] },
    ),
    { input: z.strictObject({ ...cartPath, ...paymentBodySchema }), output: orderResultSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, ...report } = input;
      return reportPayment(ctx, { locationId, cartId }, report);
    },
  ),

  orderResult: readProcedure(
    cartReadMeta(
      {
        method: "GET",
        path: "/locations/{locationId}/carts/{cartId}/order-result",
        tags,
        summary: "Poll the outcome of the cart's payment",
        description:
          "`payment_pending` and `order_pending`: poll again after pollAfterMs (Retry-After). `completed`: the order exists and the restaurant accepted it; the cart's own X-Cart-Token also receives the receipt capability. `failed`: the reason, and the cart is OPEN for another attempt.",
      },
      pollResponseHeaders,
    ),
  )
    .input(z.object(cartPath))
    .output(responseSchema(orderResultSchema))
    .query(({ ctx, input }) => getOrderResult(ctx, input)),

  rating: transactionalWrite(
    cartCheckoutMeta(
      {
        method: "POST",
        path: "/locations/{locationId}/carts/{cartId}/rating",
        tags,
        summary: "Rate the completed order (once)",
        description: "A 1-5 rating with an optional comment. One rating per order: a second one is 409 RESOURCE_CONFLICT. No If-Match: a completed cart no longer changes.",
      },
      privateResponseHeaders,
      { successStatus: 201, conflicts: ["RESOURCE_CONFLICT"] },
    ),
    { input: z.strictObject({ ...cartPath, ...ratingBodySchema }), output: ratingSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, ...rating } = input;
      return rateOrder(ctx, { locationId, cartId }, rating);
    },
  ),
});
