import type { CartWithLines } from "../../db/schema";
import type { CartStatus } from "../domain/cart-types";
import { amountTextsIn, type Currency } from "../domain/money";
import type { CartView } from "../schemas/cart";
import { randomUUID } from "node:crypto";
import { rememberJsonText } from "../../db/json-text";
import { inJsonbOrder } from "../../db/jsonb-order";
import { perLine } from "./line-texts";
import { cartItems, type RenderedItem } from "./cart-items";
import { pricedLinesInOrder } from "../domain/priced-lines";

type CartRow = CartWithLines;

/** A cart past its idle expiry is EXPIRED even before the expiry job rewrites its row. */
export function effectiveStatus(cart: Pick<CartRow, "status" | "expiresAt">, now: Date): CartStatus {
  return cart.status === "OPEN" && cart.expiresAt <= now ? "EXPIRED" : cart.status;
}


/** The stored cart as the spec's Cart object: decimal strings and display strings at the edge only. */
export function toCartView(cart: CartRow, now: Date): CartView {
  const currency: Currency = cart.currency;
  const texts = amountTextsIn(currency);
  const decimal = (minor: number) => texts(minor).decimal;
  const formatted = (minor: number) => texts(minor).formatted;
  const p = cart.priced;
  const pricedLines = pricedLinesInOrder(cart.lines, p);
  const items = cartItems(cart.lines, pricedLines, currency, (line, unitPriceMinor, totalMinor, discountMinor) =>
    renderedItem(line, `${currency} ${unitPriceMinor} ${totalMinor} ${discountMinor}`, () => {
      const item = {
        id: line.id,
        productId: line.productId,
        name: line.name,
        description: line.description,
        imageUrl: line.imageUrl,
        // Written out rather than spread from money(): a line's object then keeps one shape, which
        // is what keeps building and serialising a 100-line cart cheap.
        price: decimal(unitPriceMinor),
        priceFormatted: formatted(unitPriceMinor),
        total: decimal(totalMinor),
        totalFormatted: formatted(totalMinor),
        discount: decimal(discountMinor),
        discountFormatted: formatted(discountMinor),
        quantity: line.quantity,
        categoryId: line.categoryId,
        itemUnavailableAction: line.itemUnavailableAction,
        selections: line.selections.map((selection) => ({
          modifierGroupId: selection.modifierGroupId,
          modifierGroupName: selection.modifierGroupName,
          optionId: selection.optionId,
          optionName: selection.optionName,
          quantity: selection.quantity,
          price: decimal(selection.priceMinor),
          priceFormatted: formatted(selection.priceMinor),
        })),
        specialInstructions: line.specialInstructions,
        product: { id: line.productId, name: line.name, price: decimal(line.basePriceMinor) },
      };
      return { item, text: JSON.stringify(item) };
    }),
  );

  const view: CartView = {
    id: cart.id,
    locationId: cart.locationId,
    merchantId: cart.merchantId,
    status: effectiveStatus(cart, now),
    lockedAt: cart.lockedAt?.toISOString() ?? null,
    revision: cart.revision,
    expiresAt: cart.expiresAt.toISOString(),
    authorityContext: {
      version: 1,
      organizationId: cart.merchantId,
      locationId: cart.locationId,
      profile: "platform_commerce",
      cartId: cart.id,
      cartRevision: cart.revision,
      catalogPublicationRevision: cart.catalogRevision,
      resolvedCatalogSnapshotRevision: cart.catalogRevision,
      commercePolicyRevision: cart.policyRevision,
      providerBindingRevision: null,
      authority: {
        operationalCatalog: "platform",
        quote: "platform",
        payment: "cardprocessor",
        refund: "cardprocessor",
        benefits: "platform_lip",
        orderRouting: "platform",
        fulfillment: "platform",
      },
    },
    quoteFingerprint: cart.quoteFingerprint,
    quoteExpiresAt: cart.quoteExpiresAt?.toISOString() ?? null,
    catalogRevalidation: stored(cart.catalogRevalidation),
    restaurantDisplayName: cart.restaurantDisplayName,
    fulfilmentMethod: cart.fulfilmentMethod,
    fulfillmentIdentifier: cart.fulfillmentIdentifier,
    // Members the cart may not have are undefined here rather than spread in: JSON.stringify leaves
    // them out all the same, and a literal without spreads is made in one step, its shape fixed
    // (~10 us less per answer in a running add).
    metadata: cart.metadata ? (inJsonbOrder(cart.metadata) as Record<string, unknown>) : undefined,
    pickupType: cart.pickupType,
    orderDate: cart.orderDate,
    orderTime: cart.orderTime,
    currency,
    // Each amount and its display string written out (not spread from a helper with computed names),
    // so the answer is built as one literal of one shape, as its lines are.
    subTotal: decimal(p.subTotal),
    subTotalFormatted: formatted(p.subTotal),
    discountTotal: decimal(p.discountTotal),
    discountTotalFormatted: formatted(p.discountTotal),
    waiterTipTotal: decimal(p.waiterTipTotal),
    waiterTipTotalFormatted: formatted(p.waiterTipTotal),
    taxTotal: decimal(p.taxTotal),
    taxTotalFormatted: formatted(p.taxTotal),
    taxAndFeeTotal: decimal(p.taxAndFeeTotal),
    taxAndFeeTotalFormatted: formatted(p.taxAndFeeTotal),
    serviceFeeTotal: decimal(p.serviceFeeTotal),
    serviceFeeTotalFormatted: formatted(p.serviceFeeTotal),
    paymentProcessingFeeTotal: decimal(p.paymentProcessingFeeTotal),
    paymentProcessingFeeTotalFormatted: formatted(p.paymentProcessingFeeTotal),
    applicationFeeTotal: decimal(p.applicationFeeTotal),
    applicationFeeTotalFormatted: formatted(p.applicationFeeTotal),
    netSalesTotal: decimal(p.netSalesTotal),
    netSalesTotalFormatted: formatted(p.netSalesTotal),
    fulfillmentMethodFeeTotal: decimal(p.fulfillmentMethodFeeTotal),
    fulfillmentMethodFeeTotalFormatted: formatted(p.fulfillmentMethodFeeTotal),
    orderTotal: decimal(p.orderTotal),
    orderTotalFormatted: formatted(p.orderTotal),
    orderTotalWithServiceFee: decimal(p.orderTotalWithServiceFee),
    orderTotalWithServiceFeeFormatted: formatted(p.orderTotalWithServiceFee),
    enterpriseFeeTotal: decimal(p.enterpriseFeeTotal),
    enterpriseFeeTotalFormatted: formatted(p.enterpriseFeeTotal),
    subTotalWithoutDiscount: decimal(p.subTotalWithoutDiscount),
    subTotalWithoutDiscountFormatted: formatted(p.subTotalWithoutDiscount),
    courierTipTotal: cart.fulfilmentMethod === "delivery" ? decimal(p.courierTipTotal) : undefined,
    courierTipTotalFormatted: cart.fulfilmentMethod === "delivery" ? formatted(p.courierTipTotal) : undefined,
    orderTotalWithServiceFeeAmount: p.orderTotalWithServiceFee,
    discountCode: cart.discount?.code,
    statementDescriptor: cart.statementDescriptor,
    totalQuantity: p.totalQuantity,
    items: items.items,
    fees: {
      enterpriseFeeRate: p.fees.enterpriseFeeRate,
      enterpriseFeeFix: decimal(p.fees.enterpriseFeeFixMinor),
      serviceFeeRate: p.fees.serviceFeeRate,
      serviceFeeFix: decimal(p.fees.serviceFeeFixMinor),
      taxRate: p.fees.taxRate,
      tipRate: p.fees.tipRate,
      fulfillmentMethodFeeFix: decimal(p.fees.fulfillmentMethodFeeFixMinor),
      fulfillmentMethodFeeRate: p.fees.fulfillmentMethodFeeRate,
      paymentProcessingFeeRate: p.fees.paymentProcessingFeeRate,
      paymentProcessingFeeFix: decimal(p.fees.paymentProcessingFeeFixMinor),
    },
    deliveryInfo: stored(cart.deliveryInfo),
    deliveryQuote: stored(cart.deliveryQuote),
    tableServiceInfo: stored(cart.tableServiceInfo),
    roomServiceInfo: stored(cart.roomServiceInfo),
  };
  rememberJsonText(view, viewText(view, items.text));
  return view;
}

/**
 * A value of one of the cart's jsonb columns as Postgres gives it back: a view of a row just written,
 * or with news just computed, then reads as a view of the row read back (db/jsonb-order.ts).
 */
function stored<T>(value: T | null): T | null {
  // Reordered keys of the same value: the same type.
  return value === null ? null : (inJsonbOrder(value) as T);
}

/** A line's item of the answer, with its JSON text: made again only when the line or its priced amounts change. */
const renderedItem = perLine<RenderedItem>();

/** Stands for the items in the serialised rest of the answer; random, so no value of the cart can hold it. */
const ITEMS_MARK = `items ${randomUUID()}`;
const MARKED_ITEMS = `"items":${JSON.stringify(ITEMS_MARK)}`;

/** JSON.stringify(view), with the items' text (cart-items.ts) spliced in where the items go. */
function viewText(view: CartView, itemsText: string): string {
  const rest = JSON.stringify({ ...view, items: ITEMS_MARK });
  const at = rest.indexOf(MARKED_ITEMS);
  return `${rest.slice(0, at)}"items":${itemsText}${rest.slice(at + MARKED_ITEMS.length)}`;
}
