import { and, eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { discounts } from "../../db/schema";
import { resolveSelections, sameConfiguration, type SelectionInput } from "../domain/cart-lines";
import type { CartLine } from "../domain/cart-types";
import { applyRate, isValidRate, parseDecimalToMinor, toDecimalString } from "../domain/money";
import { asapAvailable, bookableTimes, isOpenAt, localDateTime, ORDER_AHEAD_DAYS } from "../domain/schedule";
import { AppError, notFound, validationError } from "../errors";
import type { CartView } from "../schemas/cart";
import { quoteInput } from "../quote-input";
import { newId } from "../security/tokens";
import type { CartMutationContext } from "./operation-context";
import { mutateCart, type CartIds } from "./carts";
import Big from "big.js";

export type AddItemInput = {
  productId: string;
  quantity: number;
  selections: SelectionInput[];
  itemUnavailableAction: "remove_item";
  specialInstructions?: string | undefined;
};

/** Adds a product, priced from the catalog; an identical configuration merges into its line. */
export function addItem(ctx: CartMutationContext, ids: CartIds, input: AddItemInput): Promise<CartView> {
  return mutateCart(ctx, ids, async ({ tx, cart, location }) => {
    const product = await ctx.deps.catalogCache.product(tx, { locationId: location.id, catalogRevision: location.catalogRevision }, input.productId);
    if (!product) {
      throw validationError(`Product ${quoteInput(input.productId)} is not on this location's menu`, [{ path: "productId", message: "unknown product for this location" }]);
    }
    const resolved = resolveSelections(product, input.selections);
    if (!resolved.ok) throw validationError(resolved.message, resolved.fields);
    const instructions = input.specialInstructions ?? "";
    const { CART_MAX_LINES, CART_MAX_LINE_QUANTITY } = ctx.deps.env;

    const existing = cart.lines.find((line) => sameConfiguration(line, product.id, resolved.selections, instructions));
    const quantity = (existing?.quantity ?? 0) + input.quantity;
    if (quantity > CART_MAX_LINE_QUANTITY) {
      throw validationError(`A line can hold at most ${CART_MAX_LINE_QUANTITY} of an item`, [{ path: "quantity", message: `line total would be ${quantity}` }]);
    }
    requireWithinProductLimit(product, quantity);
    if (existing) {
      return { lines: cart.lines.map((line) => (line === existing ? { ...line, quantity } : line)) };
    }
    if (cart.lines.length >= CART_MAX_LINES) {
      throw validationError(`A cart can hold at most ${CART_MAX_LINES} lines`, [{ path: "productId", message: "cart is full" }]);
    }
    const line: CartLine = {
      id: newId("li"),
      productId: product.id,
      name: product.name,
      description: product.description,
      imageUrl: product.imageUrl,
      categoryId: product.categoryId,
      quantity,
      basePriceMinor: product.priceMinor,
      selections: resolved.selections,
      specialInstructions: instructions,
      itemUnavailableAction: input.itemUnavailableAction,
    };
    return { lines: [...cart.lines, line] };
  }, { amountField: "quantity" });
}

/** PATCH .../cart-item/{itemId}/quantity: sets a line's quantity; 0 removes the line. */
export function updateItemQuantity(ctx: CartMutationContext, ids: CartIds & { itemId: string }, quantity: number): Promise<CartView> {
  const { itemId, ...cartIds } = ids;
  return mutateCart(ctx, cartIds, async ({ tx, cart, location }) => {
    const target = cart.lines.find((line) => line.id === itemId);
    if (!target) throw notFound("Cart item");
    if (quantity > ctx.deps.env.CART_MAX_LINE_QUANTITY) {
      throw validationError(`A line can hold at most ${ctx.deps.env.CART_MAX_LINE_QUANTITY} of an item`, [{ path: "quantity", message: "too large" }]);
    }
    if (quantity > target.quantity) {
      const product = await ctx.deps.catalogCache.product(tx, { locationId: location.id, catalogRevision: location.catalogRevision }, target.productId);
      if (product) requireWithinProductLimit(product, quantity);
    }
    return {
      lines: quantity === 0 ? cart.lines.filter((line) => line.id !== itemId) : cart.lines.map((line) => (line.id === itemId ? { ...line, quantity } : line)),
    };
  }, { amountField: "quantity" });
}

/** A product's own limit (limited stock, specials), on top of the cart-wide CART_MAX_LINE_QUANTITY. */
function requireWithinProductLimit(product: { name: string; maxQuantity: number | null }, quantity: number): void {
  if (product.maxQuantity !== null && quantity > product.maxQuantity) {
    throw validationError(`A line can hold at most ${product.maxQuantity} of ${product.name}`, [{ path: "quantity", message: `must be at most ${product.maxQuantity}` }]);
  }
}

export type OrderTimeInput = { pickupType: "ASAP" } | { pickupType: "LATER"; orderDate: string; orderTime: string };

/**
 * ASAP needs the location open now. LATER must name one of the bookable times that
 * /time-intervals lists for the cart's fulfilment method (opening hours, lead time, slot spacing).
 */
export function updateOrderTime(ctx: CartMutationContext, ids: CartIds, input: OrderTimeInput): Promise<CartView> {
  return mutateCart(ctx, ids, ({ cart, location, now }) => {
    const option = location.fulfilment[cart.fulfilmentMethod];
    if (!option?.enabled) throw validationError(`${cart.fulfilmentMethod} is no longer offered here`, [{ path: "pickupType", message: "fulfilment unavailable" }]);
    const nowLocal = DateTime.fromJSDate(now, { zone: location.timeZone });
    if (input.pickupType === "ASAP") {
      if (!asapAvailable(location.openingHours, nowLocal, option.leadMinutes)) {
        const message = isOpenAt(location.openingHours, nowLocal)
          ? `${location.displayName} closes before a ${cart.fulfilmentMethod} order placed now would be ready; choose a later time`
          : `${location.displayName} is closed now; choose a later time`;
        throw validationError(message, [{ path: "pickupType", message: "closed now" }]);
      }
      return { pickupType: "ASAP", orderDate: "", orderTime: "" };
    }
    const when = localDateTime(location.timeZone, input.orderDate, input.orderTime);
    if (!when) {
      throw validationError("orderDate must be YYYY-MM-DD and orderTime HH:MM (24-hour), a real local time", [
        { path: "orderDate", message: "expected YYYY-MM-DD" },
        { path: "orderTime", message: "expected HH:MM" },
      ]);
    }
    const slots = bookableTimes(location.openingHours, location.timeZone, input.orderDate, nowLocal, option);
    if (!slots.includes(input.orderTime)) {
      throw validationError(`${quoteInput(input.orderDate)} ${quoteInput(input.orderTime)} is not a bookable ${cart.fulfilmentMethod} time; see /time-intervals`, [
        { path: "orderTime", message: slots.length === 0 ? `no bookable times that day (orders are taken up to ${ORDER_AHEAD_DAYS} days ahead)` : `not a bookable slot (first: ${slots[0]}, last: ${slots[slots.length - 1]})` },
      ]);
    }
    return { pickupType: "LATER", orderDate: input.orderDate, orderTime: input.orderTime };
  });
}

export type GratuityInput = { rate: string } | { amount: string };

/**
 * A rate up to the location's maxRate, or (where the location allows custom amounts) an amount up to
 * maxRate x the subtotal before discount: a tip is bounded by the same policy however it is given.
 * Pricing applies the same cap again (domain/pricing.ts), so lines removed later lower the tip with them.
 */
export function setGratuity(ctx: CartMutationContext, ids: CartIds, input: GratuityInput): Promise<CartView> {
  const field = "rate" in input ? "rate" : "amount";
  return mutateCart(ctx, ids, ({ cart, location }) => {
    const policy = location.gratuity;
    if ("rate" in input) {
      if (!isValidRate(input.rate) || new Big(input.rate).gt(policy.maxRate)) {
        throw validationError(`rate must be a decimal between 0 and ${policy.maxRate}`, [{ path: "rate", message: `expected 0..${policy.maxRate} with at most 6 decimals` }]);
      }
      return { gratuity: { kind: "rate", rate: new Big(input.rate).toString() } };
    }
    if (!policy.allowCustomAmount) throw validationError("This location accepts gratuity as a rate only", [{ path: "amount", message: "custom amounts not accepted" }]);
    const amountMinor = parseDecimalToMinor(input.amount, cart.currency);
    if (amountMinor === undefined) {
      throw validationError("amount must be a non-negative decimal with at most 2 fraction digits (trailing zeros aside)", [{ path: "amount", message: "invalid amount" }]);
    }
    const maxMinor = applyRate(cart.priced.subTotalWithoutDiscount, policy.maxRate);
    if (amountMinor > maxMinor) {
      const max = toDecimalString(maxMinor, cart.currency);
      throw validationError(`A tip can be at most ${max} here (${policy.maxRate} of the subtotal before discount)`, [{ path: "amount", message: `must be at most ${max}` }]);
    }
    return { gratuity: { kind: "amount", amountMinor } };
  }, { amountField: field });
}

export function applyDiscount(ctx: CartMutationContext, ids: CartIds, code: string): Promise<CartView> {
  return mutateCart(ctx, ids, async ({ tx, cart }) => {
    const [discount] = await tx
      .select()
      .from(discounts)
      .where(and(eq(discounts.locationId, cart.locationId), eq(discounts.code, sql`upper(${code})`)));
    if (!discount || !discount.active) {
      throw validationError(`Discount code ${quoteInput(code)} is not valid here`, [{ path: "code", message: "unknown or inactive code" }]);
    }
    const subtotal = cart.priced.subTotalWithoutDiscount;
    if (subtotal < discount.minimumSubtotalMinor) {
      throw validationError(`Discount code ${discount.code} needs a larger subtotal`, [{ path: "code", message: "minimum subtotal not reached" }]);
    }
    return { discount: { code: discount.code, rate: discount.rate, amountMinor: discount.amountMinor, minimumSubtotalMinor: discount.minimumSubtotalMinor } };
  });
}

export function removeDiscount(ctx: CartMutationContext, ids: CartIds): Promise<CartView> {
  return mutateCart(ctx, ids, ({ cart }) => {
    if (!cart.discount) throw new AppError("NOT_FOUND", "No discount is applied to this cart");
    return { discount: null };
  });
}

/**
 * The contract's one cart transition, with no condition: whoever may mutate the cart may expire it,
 * also when its location has since been taken off line (unpublished), where every other change is 404.
 */
export function expireCart(ctx: CartMutationContext, ids: CartIds): Promise<CartView> {
  return mutateCart(ctx, ids, () => ({ status: "EXPIRED" }), { evenIfLocationUnpublished: true });
}
