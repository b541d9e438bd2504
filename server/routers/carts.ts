import { z } from "zod";
import { addItemBodySchema, cartPath, cartSchema, gratuityBodySchema } from "../schemas/cart";
import { cartIdParam, etagResponseHeaders, fulfilmentMethodSchema, identifier, itemIdParam, jsonInteger, locationIdParam, pathId } from "../schemas/common";
import * as cartOps from "../services/cart-operations";
import * as carts from "../services/carts";
import { locationReadAhead } from "../services/locations";
import { router } from "../trpc/init";
import { cartMutation, readProcedure, transactionalWrite } from "../trpc/procedures";
import { responseSchema } from "../trpc/response-validation";
import { cartQuoteProcedures } from "./cart-quotes";
import { cartMutationMeta, cartReadMeta, writeMeta, type OperationTag } from "./meta";

const tags: OperationTag[] = ["Carts"];

const orderTimeInput = z
  .strictObject({
    ...cartPath,
    pickupType: z.enum(["ASAP", "LATER"]),
    orderDate: z.string().min(1).max(64).optional(),
    orderTime: z.string().min(1).max(32).optional(),
  })
  .superRefine((body, issues) => {
    const hasDate = body.orderDate !== undefined;
    const hasTime = body.orderTime !== undefined;
    if (body.pickupType === "ASAP" && (hasDate || hasTime)) {
      issues.addIssue({ code: "custom", path: [hasDate ? "orderDate" : "orderTime"], message: "ASAP takes no orderDate or orderTime" });
    }
    if (body.pickupType === "LATER" && !hasDate) issues.addIssue({ code: "custom", path: ["orderDate"], message: "LATER needs orderDate" });
    if (body.pickupType === "LATER" && !hasTime) issues.addIssue({ code: "custom", path: ["orderTime"], message: "LATER needs orderTime" });
  })
  .meta({ description: "Exactly one form: { pickupType: ASAP } or { pickupType: LATER, orderDate, orderTime }." });

const gratuityInput = gratuityBodySchema.safeExtend(cartPath).meta({ description: "Exactly one of rate or amount." });

export const cartsRouter = router({
  createOrderingSession: transactionalWrite(
    writeMeta(
      {
        method: "POST",
        path: "/locations/{locationId}/ordering-sessions",
        tags: ["Ordering sessions"],
        summary: "Start ordering: creates a guest cart and returns its capability once",
        description:
          "Keep cart.id, cartAccessToken and the ETag together. The token is shown only in this response; send it as X-Cart-Token. A retry with the same Idempotency-Key replays the cart without the token (an anonymous caller is known only by its address, which others behind the same NAT share): a client that lost the first answer starts a new session.",
      },
      201,
    ),
    { input: z.strictObject({ locationId: locationIdParam, fulfillmentMethod: fulfilmentMethodSchema, marketplaceId: z.string().min(1).max(128).optional() }), output: z.strictObject({ cart: cartSchema, cartAccessToken: z.string().optional() }) },
    ({ ctx, input }) => carts.createOrderingSession(ctx, input),
    { withoutCredential: carts.orderingSessionWithoutToken, alongsideClaim: (tx, input) => locationReadAhead.send(tx, input.locationId) },
  ),

  get: readProcedure(cartReadMeta({ method: "GET", path: "/locations/{locationId}/carts/{cartId}", tags, summary: "Read a cart" }, etagResponseHeaders))
    .input(z.object(cartPath))
    .output(responseSchema(cartSchema))
    .query(({ ctx, input }) => carts.getCart(ctx, input)),

  addItem: cartMutation(
    cartMutationMeta({ method: "POST", path: "/locations/{locationId}/carts/{cartId}/items", tags, summary: "Add a product with its modifier selections" }),
    { input: z.strictObject({ ...cartPath, ...addItemBodySchema }), output: cartSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, ...item } = input;
      return cartOps.addItem(ctx, { locationId, cartId }, item);
    },
  ),

  updateItemQuantity: cartMutation(
    cartMutationMeta({ method: "PATCH", path: "/locations/{locationId}/carts/{cartId}/cart-item/{itemId}/quantity", tags, summary: "Set a line's quantity (0 removes it)" }),
    { input: z.strictObject({ ...cartPath, itemId: itemIdParam, quantity: jsonInteger(0, 9999) }), output: cartSchema },
    ({ ctx, input }) => cartOps.updateItemQuantity(ctx, input, input.quantity),
  ),

  updateOrderTime: cartMutation(
    cartMutationMeta({
      method: "PUT",
      path: "/locations/{locationId}/carts/{cartId}/update-order-time",
      operationId: "storefrontUpdateCartOrderTime",
      tags,
      summary: "Order as soon as possible, or at a bookable later time",
      description:
        "ASAP is taken while the location is open from now until an order placed now would be ready (now plus the fulfilment method's lead time); otherwise 400. LATER must be one of the times /time-intervals lists for the cart's fulfilment method: inside the opening hours, at least the lead time ahead, on a date no more than 30 days after the location's today. The time is checked again at payment, with the menus of the cart's lines (SCHEDULE_CLOSED).",
    }),
    { input: orderTimeInput, output: cartSchema },
    ({ ctx, input }) =>
      cartOps.updateOrderTime(
        ctx,
        input,
        input.pickupType === "ASAP" ? { pickupType: "ASAP" } : { pickupType: "LATER", orderDate: input.orderDate ?? "", orderTime: input.orderTime ?? "" },
      ),
  ),

  setGratuity: cartMutation(
    cartMutationMeta({ method: "PUT", path: "/locations/{locationId}/carts/{cartId}/gratuity", tags, summary: "Set the gratuity as a rate or an amount" }),
    { input: gratuityInput, output: cartSchema },
    ({ ctx, input }) =>
      cartOps.setGratuity(ctx, input, input.rate !== undefined ? { rate: input.rate } : { amount: input.amount ?? "" }),
  ),

  expire: cartMutation(
    cartMutationMeta({ method: "DELETE", path: "/locations/{locationId}/carts/{cartId}", tags, summary: "Expire (abandon) the cart" }),
    { input: z.object(cartPath), output: cartSchema },
    ({ ctx, input }) => cartOps.expireCart(ctx, input),
  ),

  applyDiscount: cartMutation(
    cartMutationMeta({ method: "POST", path: "/locations/{locationId}/discounts/apply-discount", tags: ["Discounts"], summary: "Apply a discount code to a cart" }),
    { input: z.strictObject({ locationId: locationIdParam, cartId: pathId, code: identifier }), output: cartSchema },
    ({ ctx, input }) => cartOps.applyDiscount(ctx, input, input.code),
  ),

  removeDiscount: cartMutation(
    cartMutationMeta({ method: "DELETE", path: "/locations/{locationId}/discounts/apply-discount", tags: ["Discounts"], summary: "Remove the cart's discount code" }),
    { input: z.object({ locationId: locationIdParam, cartId: cartIdParam }), output: cartSchema },
    ({ ctx, input }) => cartOps.removeDiscount(ctx, input),
  ),

  ...cartQuoteProcedures,
});
