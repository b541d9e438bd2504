import { z } from "zod";
import { cartPath, cartSchema, clientAmount, deliveryAddressSchema } from "../schemas/cart";
import * as delivery from "../services/delivery";
import { validationError } from "../errors";
import { setServiceDetails } from "../services/service-details";
import { validateAndUpdate } from "../services/validate-cart";
import { cartMutation, committingCartMutation } from "../trpc/procedures";
import { cartMutationMeta, type OperationTag } from "./meta";

/** Delivery address, courier tip and revalidation: the procedures that keep a cart's quote true. */
const tags: OperationTag[] = ["Carts"];

const serviceText = (max: number, description: string) => z.string().trim().min(1).max(max).meta({ description });
const serviceDetailsInput = z
  .strictObject({
    ...cartPath,
    tableServiceInfo: z.strictObject({ tableNumber: serviceText(32, "The table, as the restaurant numbers or names it.") }).optional(),
    roomServiceInfo: z.strictObject({ roomNumber: serviceText(32, "The room."), lastName: serviceText(64, "The guest's last name, to match the room.") }).optional(),
  })
  .refine((body) => (body.tableServiceInfo === undefined) !== (body.roomServiceInfo === undefined), { message: "Send exactly one of tableServiceInfo or roomServiceInfo", path: ["tableServiceInfo"] })
  .meta({ description: "Exactly one of tableServiceInfo or roomServiceInfo." });

const text = (max: number) => z.string().trim().min(1, "must not be blank").max(max);
const address = deliveryAddressSchema.shape;

const setDeliveryInput = z.strictObject({
  ...cartPath,
  street: text(200),
  city: text(100),
  state: text(100),
  zipCode: text(20),
  country: address.country,
  lat: address.lat,
  lng: address.lng,
  streetOptional: z.string().trim().max(200).default(""),
});

const validateInput = z
  .strictObject({
    ...cartPath,
    // Piped like every JSON number and boolean (schemas/common.ts): the REST adapter would read "false" as true.
    accept: z.boolean().pipe(z.boolean()).optional().meta({ description: "true: accept the cart's current changes and quote (needs quoteFingerprint)." }),
    quoteFingerprint: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .meta({ description: "The cart's quoteFingerprint the customer reviewed; the acceptance applies only if it is still current." }),
  })
  .superRefine((body, issues) => {
    if (body.accept === true && body.quoteFingerprint === undefined) issues.addIssue({ code: "custom", path: ["quoteFingerprint"], message: "accept needs the quoteFingerprint you reviewed" });
    if (body.accept !== true && body.quoteFingerprint !== undefined) issues.addIssue({ code: "custom", path: ["quoteFingerprint"], message: "quoteFingerprint is sent only with accept: true" });
  })
  .meta({ description: "`{}` to revalidate, or `{ accept: true, quoteFingerprint }` to accept the changes and quote reviewed." });

export const cartQuoteProcedures = {
  setDelivery: committingCartMutation(
    cartMutationMeta({
      method: "PUT",
      path: "/locations/{locationId}/carts/{cartId}/set-delivery",
      tags,
      summary: "Set the delivery address and get a courier quote",
      description: [
        "Body: a DeliveryAddress. street, city, state and zipCode are required non-blank strings (surrounding spaces are trimmed); country is required and must be the location's own country; lat (-90..90) and lng (-180..180) are required numbers, since the courier prices the distance from them (no geocoding); streetOptional (apartment, floor) may be omitted and defaults to an empty string.",
        "Only a delivery cart accepts it: any other cart answers 409 RESOURCE_CONFLICT (the fulfilment method is fixed when the cart is created).",
        "The courier is asked for a quote before anything is stored. An address the courier refuses (beyond the delivery radius, undeliverable) answers 400 VALIDATION_ERROR with `details.reason` and leaves the cart unchanged; a courier that is down or slower than COURIER_TIMEOUT_MS answers 503 DEPENDENCY_UNAVAILABLE.",
        "The response carries deliveryInfo and deliveryQuote; the courier fee and tax are part of fulfillmentMethodFeeTotal and taxTotal. The quote is bound to the address, order time and subtotal: when any of them changes later it is flagged (catalogRevalidation, reason QUOTE_EXPIRED) and validate-and-update renews it. quoteExpiresAt never outlives the courier quote (5 minutes).",
      ].join("\n\n"),
    }, ["RESOURCE_CONFLICT"]),
    { input: setDeliveryInput, output: cartSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, ...addressData } = input;
      return delivery.setDelivery(ctx, { locationId, cartId }, addressData);
    },
  ),

  setCourierTip: cartMutation(
    cartMutationMeta({
      method: "PUT",
      path: "/locations/{locationId}/carts/{cartId}/courier-tip",
      tags,
      summary: "Set the courier tip of a delivery cart",
      description:
        "amount: a non-negative decimal string in the cart's currency with at most 2 fraction digits (trailing zeros aside: \"1.500\" is 1.50), at most COURIER_TIP_MAX_MINOR minor units (100.00 by default). Sets courierTipTotal and the courier quote's courierTipMinor; the tip is handed to the courier when the quote is accepted at checkout, so no new quote is needed. A cart that is not for delivery answers 409 RESOURCE_CONFLICT.",
    }, ["RESOURCE_CONFLICT"]),
    { input: z.strictObject({ ...cartPath, amount: clientAmount.meta({ description: "At most COURIER_TIP_MAX_MINOR minor units (100.00 by default); above it: 400 naming `amount`." }) }), output: cartSchema },
    ({ ctx, input }) => delivery.setCourierTip(ctx, input, input.amount),
  ),

  setServiceDetails: cartMutation(
    cartMutationMeta({
      method: "PUT",
      path: "/locations/{locationId}/carts/{cartId}/service-details",
      tags,
      summary: "Say where a table-side or room-service order is served",
      description:
        "Exactly one of `tableServiceInfo` (a table_side cart: `tableNumber`) or `roomServiceInfo` (a room_service cart: `roomNumber` and the guest's `lastName`), as the Cart shows them. Checkout (payment-session, payments) refuses a table_side or room_service cart without them: 409 REQUOTE_REQUIRED with SERVICE_DETAILS_MISSING. Details for another fulfilment method answer 409 RESOURCE_CONFLICT. Setting them again replaces them.",
    }, ["RESOURCE_CONFLICT"]),
    { input: serviceDetailsInput, output: cartSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, tableServiceInfo, roomServiceInfo } = input;
      // The schema's refine lets exactly one of the two through.
      const details = tableServiceInfo ? { tableServiceInfo } : roomServiceInfo ? { roomServiceInfo } : undefined;
      if (!details) throw validationError("Send exactly one of tableServiceInfo or roomServiceInfo", [{ path: "tableServiceInfo", message: "required" }]);
      return setServiceDetails(ctx, { locationId, cartId }, details);
    },
  ),

  validateAndUpdate: committingCartMutation(
    cartMutationMeta({
      method: "PUT",
      path: "/locations/{locationId}/carts/{cartId}/validate-and-update",
      tags,
      summary: "Re-check the cart against the current menu, policy, schedule and quotes",
      description: [
        "Re-checks every line against the current catalog (availability, price, modifier options and rules, quantity limits, menu schedule at the cart's order time), the commerce policy (fees, tax), the opening hours and fulfilment availability, and the quotes (a stale or expiring courier quote is renewed with the courier first). What can be applied is applied and re-priced; the Cart comes back with `catalogRevalidation`.",
        "Body `{}`: check. Body `{ \"accept\": true, \"quoteFingerprint\": \"<the cart's quoteFingerprint>\" }`: check, then accept the applied changes (sets `acknowledgedAt`); if the quote is no longer the one given (something changed since the customer reviewed it) the answer is 409 REQUOTE_REQUIRED and nothing is stored.",
        "Each `changeSet.changes` entry names a `path` in the Cart, its `before` and `after` values (money as decimal strings) and the `permittedActions`. An entry without ACCEPT_CHANGES is blocking (ITEM_SOLD_OUT, ITEM_UNAVAILABLE, MODIFIER_UNAVAILABLE, MODIFIER_RULE_CHANGED, SCHEDULE_CLOSED, FULFILLMENT_UNAVAILABLE): resolve it by editing or removing the item, changing the order time or address (CHANGE_FULFILLMENT), or starting a new cart; checkout refuses with 409 REQUOTE_REQUIRED until then. Entries with ACCEPT_CHANGES (PRICE_CHANGED, QUANTITY_REDUCED, POLICY_CHANGED, a new courier fee) are already applied and need the customer's acceptance. An entry with no actions is informational (a quote renewed at the same price). `required` is true while anything blocks, a quote awaits renewal, or applied changes await acceptance. MAPPING_MISSING does not occur: carts here are priced from the platform's own catalog, with no provider mapping.",
      ].join("\n\n"),
    }, ["REQUOTE_REQUIRED"]),
    { input: validateInput, output: cartSchema },
    ({ ctx, input }) => {
      const { locationId, cartId, accept, quoteFingerprint } = input;
      return validateAndUpdate(ctx, { locationId, cartId }, { accept, quoteFingerprint });
    },
  ),
};
