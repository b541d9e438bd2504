import type { DeliveryAddress, DeliveryInfo, DeliveryQuote } from "../domain/delivery";
import { deliveryQuoteFingerprint, deliveryQuoteState, formatAddress, quoteInputsOf } from "../domain/delivery";
import { parseDecimalToMinor, toDecimalString } from "../domain/money";
import { localDateTime } from "../domain/schedule";
import { AppError, validationError } from "../errors";
import type { CourierRejection } from "../integrations/courier/types";
import type { CartView } from "../schemas/cart";
import { newId } from "../security/tokens";
import type { RequestContext } from "../app/request-context";
import type { CartRow } from "./cart-access";
import { preflightCartMutation } from "./cart-preflight";
import type { CartMutationContext, CommittingCartMutation } from "./operation-context";
import { mutateCart, type CartIds } from "./carts";
import type { LocationRow } from "./locations";
import { loadCatalogFacts, projectCart } from "./revalidation";

/** Delivery address, courier quote and courier tip of a delivery cart. */

/** 409: the request is fine, but this cart is not a delivery cart (its method is fixed at creation). */
export function requireDeliveryCart(cart: Pick<CartRow, "fulfilmentMethod">): void {
  if (cart.fulfilmentMethod !== "delivery") {
    throw new AppError("RESOURCE_CONFLICT", `This is a ${cart.fulfilmentMethod} cart; only a delivery cart takes a delivery address or courier tip`, {
      details: { fulfilmentMethod: cart.fulfilmentMethod },
    });
  }
}

export type CourierOutcome = { ok: true; quote: DeliveryQuote } | { ok: false; rejection: CourierRejection };

/**
 * Asks the courier to price delivering `cart` (as it will be stored) to `info`. Runs outside any
 * transaction. The stored quote's fingerprint binds it to the address, order time and subtotal
 * it was requested for.
 */
export async function requestCourierQuote(ctx: RequestContext, location: LocationRow, cart: CartRow, info: DeliveryInfo, now: Date): Promise<CourierOutcome> {
  const leadMinutes = location.fulfilment.delivery?.leadMinutes ?? 0;
  const scheduled = cart.pickupType === "LATER" ? localDateTime(location.timeZone, cart.orderDate, cart.orderTime)?.toJSDate() : undefined;
  const tipMinor = cart.courierTipMinor ?? 0;
  const result = await ctx.deps.courier.quote({
    externalDeliveryId: newId("dlv"),
    pickup: {
      businessName: location.displayName,
      address: [location.street, location.city, `${location.state} ${location.zipCode}`, location.country].join(", "),
      phone: location.phone,
      lat: location.lat,
      lng: location.lng,
    },
    dropoff: { address: info.addressString, lat: info.addressData.lat, lng: info.addressData.lng },
    orderValueMinor: cart.priced.subTotal,
    currency: cart.currency,
    pickupTime: scheduled ?? new Date(now.getTime() + leadMinutes * 60_000),
    tipMinor,
    now,
  });
  if (!result.ok) return result;
  const quote = result.quote;
  const terms = {
    provider: "PARTNER_DRIVE" as const,
    externalDeliveryId: quote.externalDeliveryId,
    feeMinor: quote.feeMinor,
    taxMinor: quote.taxMinor,
    courierTipMinor: tipMinor,
    currency: quote.currency,
    quotedAt: quote.quotedAt.toISOString(),
    expiresAt: quote.expiresAt.toISOString(),
  };
  return {
    ok: true,
    quote: {
      ...terms,
      quoteFingerprint: deliveryQuoteFingerprint(terms, quoteInputsOf(cart, info.addressData)),
      ...(quote.pickupEstimatedAt ? { pickupEstimatedAt: quote.pickupEstimatedAt.toISOString() } : {}),
      ...(quote.dropoffEstimatedAt ? { dropoffEstimatedAt: quote.dropoffEstimatedAt.toISOString() } : {}),
      status: "quoted",
      ...(quote.trackingUrl ? { trackingUrl: quote.trackingUrl } : {}),
      ...(quote.supportReference ? { supportReference: quote.supportReference } : {}),
    },
  };
}

/**
 * PUT .../set-delivery. Validates the address, asks the courier for a quote before any
 * transaction opens, then stores address and quote through mutateCart (which re-checks the
 * cart's state and revision). A refused address changes nothing.
 */
export async function setDelivery(ctx: CommittingCartMutation, ids: CartIds, address: DeliveryAddress): Promise<CartView> {
  const { cart, location } = await preflightCartMutation(ctx, ids);
  requireDeliveryCart(cart);
  if (address.country !== location.country) {
    throw validationError(`${location.displayName} delivers within ${location.country} only`, [{ path: "country", message: `must be ${location.country}` }]);
  }
  const now = ctx.deps.now();
  const info: DeliveryInfo = { addressString: formatAddress(address), addressData: address };
  // Quote the cart as it will be stored: if the catalog moved on, mutateCart re-prices it first.
  const facts = await loadCatalogFacts(ctx.deps.database.db, location, cart.lines.map((line) => line.productId));
  const outcome = await requestCourierQuote(ctx, location, projectCart(cart, facts, location, now), info, now);
  if (!outcome.ok) throw courierRefused(outcome.rejection);
  return ctx.commit((tx) =>
    mutateCart({ ...ctx, tx }, ids, ({ cart: current }) => {
      requireDeliveryCart(current);
      return { deliveryInfo: info, deliveryQuote: outcome.quote };
    }),
  );
}

export function courierRefused(rejection: CourierRejection): AppError {
  return new AppError("VALIDATION_ERROR", `The courier cannot deliver to this address: ${rejection.message}`, {
    details: { reason: rejection.reason, ...rejection.details, fields: [{ path: "(address)", message: rejection.message }] },
  });
}

/**
 * PUT .../courier-tip. The tip goes to the courier when the quote is accepted at checkout, so it
 * needs no new quote: it is written into the current one (a stale quote stays stale).
 */
export function setCourierTip(ctx: CartMutationContext, ids: CartIds, amount: string): Promise<CartView> {
  return mutateCart(ctx, ids, ({ cart, now }) => {
    requireDeliveryCart(cart);
    const tipMinor = parseDecimalToMinor(amount, cart.currency);
    if (tipMinor === undefined) {
      throw validationError("amount must be a non-negative decimal with at most 2 fraction digits (trailing zeros aside)", [{ path: "amount", message: "invalid amount" }]);
    }
    const max = ctx.deps.env.COURIER_TIP_MAX_MINOR;
    if (tipMinor > max) {
      throw validationError(`A courier tip can be at most ${toDecimalString(max, cart.currency)}`, [{ path: "amount", message: `must be at most ${toDecimalString(max, cart.currency)}` }]);
    }
    const quote = cart.deliveryQuote;
    if (!quote || !cart.deliveryInfo) return { courierTipMinor: tipMinor };
    const retipped = { ...quote, courierTipMinor: tipMinor };
    if (deliveryQuoteState(cart, now) === "stale") return { courierTipMinor: tipMinor, deliveryQuote: retipped };
    return {
      courierTipMinor: tipMinor,
      deliveryQuote: { ...retipped, quoteFingerprint: deliveryQuoteFingerprint(retipped, quoteInputsOf(cart, cart.deliveryInfo.addressData)) },
    };
  }, { amountField: "amount" });
}
