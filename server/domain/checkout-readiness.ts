import { AppError } from "../errors";
import type { AppliedDiscount, CartLine } from "./cart-types";
import { changeKind, type CatalogRevalidation } from "./revalidation";
import { deliveryQuoteState, type DeliveryCartFacts } from "./delivery";
import type { MenuAvailability } from "./catalog-types";
import { isMenuAvailableAt, isOpenAt, orderTimeServable, type LocationSchedule } from "./schedule";

/**
 * Whether a cart may be paid for right now, as far as its quote goes. Checkout calls this before
 * any money moves and refuses with 409 REQUOTE_REQUIRED while the list is not empty; the client
 * then calls PUT .../validate-and-update (and resolves or accepts what it reports).
 */
export type CheckoutBlockerCode =
  | "NO_QUOTE"
  | "QUOTE_EXPIRED"
  | "CATALOG_CHANGED"
  | "POLICY_CHANGED"
  | "DELIVERY_ADDRESS_MISSING"
  | "DELIVERY_QUOTE_MISSING"
  | "DELIVERY_QUOTE_STALE"
  | "DELIVERY_QUOTE_EXPIRED"
  | "BLOCKING_CHANGES"
  | "CHANGES_NOT_ACKNOWLEDGED"
  | "SCHEDULE_CLOSED"
  | "DISCOUNT_WITHDRAWN"
  | "SERVICE_DETAILS_MISSING";

export type CheckoutBlocker = { code: CheckoutBlockerCode; message: string; paths?: string[] };

export type CheckoutCart = DeliveryCartFacts & {
  lines: readonly CartLine[];
  catalogRevision: number;
  policyRevision: number;
  quoteFingerprint: string | null;
  quoteExpiresAt: Date | null;
  catalogRevalidation: CatalogRevalidation | null;
};

export type CheckoutLocation = { catalogRevision: number; policyRevision: number };

export function checkoutBlockers(cart: CheckoutCart, location: CheckoutLocation, now: Date): CheckoutBlocker[] {
  const blockers: CheckoutBlocker[] = [];
  if (cart.quoteFingerprint === null || cart.quoteExpiresAt === null) {
    blockers.push({ code: "NO_QUOTE", message: "The cart has no priced quote (is it empty?)" });
  } else if (cart.quoteExpiresAt.getTime() <= now.getTime()) {
    blockers.push({ code: "QUOTE_EXPIRED", message: "The cart's quote has expired" });
  }
  if (cart.catalogRevision !== location.catalogRevision) {
    blockers.push({ code: "CATALOG_CHANGED", message: "The menu changed since the cart was priced" });
  }
  if (cart.policyRevision !== location.policyRevision) {
    blockers.push({ code: "POLICY_CHANGED", message: "Fees, hours or fulfilment changed since the cart was priced" });
  }
  if (cart.fulfilmentMethod === "delivery") {
    if (!cart.deliveryInfo) {
      blockers.push({ code: "DELIVERY_ADDRESS_MISSING", message: "A delivery cart needs an address (PUT .../set-delivery)" });
    } else {
      const state = deliveryQuoteState(cart, now);
      if (state === "none") blockers.push({ code: "DELIVERY_QUOTE_MISSING", message: "The delivery has no courier quote" });
      if (state === "stale") blockers.push({ code: "DELIVERY_QUOTE_STALE", message: "The address, order time or subtotal changed since the courier quote" });
      if (state === "expired") blockers.push({ code: "DELIVERY_QUOTE_EXPIRED", message: "The courier quote has expired" });
    }
  }
  const revalidation = cart.catalogRevalidation;
  if (revalidation?.required) {
    const pending = revalidation.changeSet.changes.filter((change) => changeKind(change) === "blocking");
    if (pending.length > 0) {
      blockers.push({ code: "BLOCKING_CHANGES", message: "Some changes must be resolved before checkout", paths: pending.map((change) => change.path) });
    } else {
      blockers.push({ code: "CHANGES_NOT_ACKNOWLEDGED", message: "Changes to the cart must be reviewed and accepted" });
    }
  }
  return blockers;
}

/**
 * Whether the order can be served when the customer pays: an ASAP order needs the location open
 * from now until it is ready, a LATER one a time that is still bookable. Checked before money moves (payment session and
 * payment report), not when an authorised payment is settled, so that a payment made a second before
 * closing is not stranded. The way out is PUT .../update-order-time with a time from /time-intervals.
 */
export function orderTimeBlocker(cart: DeliveryCartFacts, location: LocationSchedule & { displayName: string }, now: Date): CheckoutBlocker | undefined {
  const { servable, moment, label } = orderTimeServable(cart, location, now);
  if (servable) return undefined;
  const closedNow = cart.pickupType === "ASAP" && !(moment && isOpenAt(location.openingHours, moment));
  const message =
    cart.pickupType !== "ASAP"
      ? `The chosen time (${label}) can no longer be booked: choose another from /time-intervals (PUT .../update-order-time)`
      : `${location.displayName} ${closedNow ? "is closed now" : "closes before an order placed now would be ready"}: choose a later time (PUT .../update-order-time with pickupType LATER and a time from /time-intervals)`;
  return { code: "SCHEDULE_CLOSED", message, paths: ["orderTime"] };
}

/** Each line's product's menu hours (null: always served); a product the catalog no longer has is absent. */
export type MenuHoursByProduct = ReadonlyMap<string, MenuAvailability | null>;

/**
 * Whether every line is on a menu served at the order's time (ASAP: now; LATER: the booked time). A
 * breakfast item added in the morning cannot be paid for at noon as ASAP, nor booked for the evening:
 * checked with the order time, before money moves. The way out is removing the line or another time.
 */
export function unservedLinesBlocker(
  cart: DeliveryCartFacts & { lines: readonly CartLine[] },
  location: LocationSchedule & { displayName: string },
  menuHours: MenuHoursByProduct,
  now: Date,
): CheckoutBlocker | undefined {
  const { moment, label } = orderTimeServable(cart, location, now);
  if (!moment) return undefined;
  const unserved = cart.lines.flatMap((line, index) => {
    const hours = menuHours.get(line.productId);
    return hours !== undefined && !isMenuAvailableAt(hours, moment) ? [{ index, name: line.name }] : [];
  });
  if (unserved.length === 0) return undefined;
  const names = unserved.map(({ name }) => name).join(", ");
  return {
    code: "SCHEDULE_CLOSED",
    message: `Not served at the chosen time (${label}): ${names}. Remove ${unserved.length === 1 ? "it" : "them"} or choose another time from /time-intervals (PUT .../update-order-time)`,
    paths: unserved.map(({ index }) => `items.${index}.servedAtOrderTime`),
  };
}

/**
 * Whether the cart's discount is still offered on the terms it was applied with. Codes are not part
 * of the catalog's publications, so a code the merchant withdrew (or changed) would otherwise be paid
 * with as the cart recorded it: checked before money moves. `offered`: the code's current row, if any;
 * `discountTotal`: what the code takes off the quote being paid.
 */
export function withdrawnDiscountBlocker(applied: AppliedDiscount | null, discountTotal: number, offered: AppliedDiscount & { active: boolean } | undefined): CheckoutBlocker | undefined {
  // A code that takes nothing off this quote (its minimum not reached) is not paid with.
  if (!applied || discountTotal === 0) return undefined;
  const same = offered?.active && offered.rate === applied.rate && offered.amountMinor === applied.amountMinor && offered.minimumSubtotalMinor === applied.minimumSubtotalMinor;
  if (same) return undefined;
  const message = offered?.active
    ? `Discount code ${applied.code} has changed: apply it again (POST .../discounts/apply-discount) or remove it (DELETE .../discounts/apply-discount)`
    : `Discount code ${applied.code} is no longer offered: remove it (DELETE .../discounts/apply-discount)`;
  return { code: "DISCOUNT_WITHDRAWN", message, paths: ["discountCode"] };
}

/** Where a table-side or room-service order is served, as the cart holds it (free-form JSON). */
export type ServiceFacts = { fulfilmentMethod: string; tableServiceInfo: Record<string, unknown> | null; roomServiceInfo: Record<string, unknown> | null };

const given = (value: unknown) => typeof value === "string" && value.trim() !== "";

/** A table-side order needs its table, a room-service order its room and guest name: the kitchen cannot serve it otherwise. */
export function serviceDetailsBlocker(cart: ServiceFacts): CheckoutBlocker | undefined {
  if (cart.fulfilmentMethod === "table_side" && !given(cart.tableServiceInfo?.tableNumber)) {
    return { code: "SERVICE_DETAILS_MISSING", message: "A table-side order needs its table number: PUT .../service-details with tableServiceInfo", paths: ["tableServiceInfo.tableNumber"] };
  }
  if (cart.fulfilmentMethod === "room_service" && !(given(cart.roomServiceInfo?.roomNumber) && given(cart.roomServiceInfo?.lastName))) {
    return { code: "SERVICE_DETAILS_MISSING", message: "A room-service order needs the room number and the guest's last name: PUT .../service-details with roomServiceInfo", paths: ["roomServiceInfo"] };
  }
  return undefined;
}

/** Throws 409 REQUOTE_REQUIRED, listing the blockers, unless the cart may be paid for now. */
export function assertCheckoutReady(cart: CheckoutCart, location: CheckoutLocation, now: Date): void {
  const blockers = checkoutBlockers(cart, location, now);
  if (blockers.length === 0) return;
  throw new AppError("REQUOTE_REQUIRED", "The cart must be revalidated before payment: call PUT .../validate-and-update, then resolve or accept what it reports", {
    details: { blockers },
  });
}
