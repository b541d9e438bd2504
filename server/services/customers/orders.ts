import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { orderLines, orders, receipts } from "../../../db/schema";
import type { DeliveryAddress } from "../../domain/delivery";
import { orderNumberOf } from "../../domain/order-number";
import { formatMinor, toDecimalString } from "../../domain/money";
import type { CustomerOrderView } from "../../schemas/customer";
import type { RequestContext } from "../../app/request-context";
import { isAccepted } from "../checkout/kitchen";
import { decodeTimeCursor, encodeTimeCursor, olderThan } from "./cursor";
import { authenticateCustomer } from "./principal";

const PRIVATE = { "cache-control": "private, no-store" };

/** GET /customer/orders: the customer's orders, newest first, a page at a time, each with its receipt id. */
export async function listCustomerOrders(ctx: RequestContext, input: { limit: number; cursor?: string | undefined }): Promise<{ orders: CustomerOrderView[]; nextCursor: string | null }> {
  const principal = await authenticateCustomer(ctx);
  const after = decodeTimeCursor(input.cursor);
  const db = ctx.deps.database.db;
  const rows = await db
    .select({ order: orders, receiptId: receipts.id })
    .from(orders)
    .innerJoin(receipts, eq(receipts.orderId, orders.id))
    .where(and(eq(orders.customerId, principal.customerId), olderThan(orders.placedAt, orders.id, after)))
    .orderBy(desc(orders.placedAt), desc(orders.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const lines =
    page.length === 0
      ? []
      : await db
          .select({ orderId: orderLines.orderId, productId: orderLines.productId, name: orderLines.name, quantity: orderLines.quantity, position: orderLines.position })
          .from(orderLines)
          .where(inArray(orderLines.orderId, page.map((row) => row.order.id)))
          .orderBy(orderLines.orderId, orderLines.position);
  const now = ctx.deps.now();
  const last = page[page.length - 1];
  Object.assign(ctx.response.headers, PRIVATE);
  return {
    orders: page.map(({ order, receiptId }) => {
      const own = lines.filter((line) => line.orderId === order.id);
      return {
        id: order.id,
        receiptId,
        locationId: order.locationId,
        restaurantDisplayName: order.restaurantDisplayName,
        orderNumber: orderNumberOf(order.id),
        status: isAccepted(order, now) ? "completed" : "order_pending",
        placedAt: order.placedAt.toISOString(),
        readyAt: order.readyAt?.toISOString() ?? null,
        fulfilmentMethod: order.fulfilmentMethod,
        pickupType: order.pickupType,
        orderDate: order.orderDate,
        orderTime: order.orderTime,
        currency: order.currency,
        subTotal: toDecimalString(order.totals.subTotal, order.currency),
        subTotalFormatted: formatMinor(order.totals.subTotal, order.currency),
        amountCharged: toDecimalString(order.amountChargedMinor, order.currency),
        amountChargedFormatted: formatMinor(order.amountChargedMinor, order.currency),
        totalQuantity: own.reduce((sum, line) => sum + line.quantity, 0),
        lines: own.map((line) => ({ productId: line.productId, name: line.name, quantity: line.quantity })),
      };
    }),
    nextCursor: rows.length > input.limit && last ? encodeTimeCursor({ at: last.order.placedAt, id: last.order.id }) : null,
  };
}

/** How many recent delivery orders are looked at for remembered addresses, and how many addresses are answered. */
const ADDRESS_SOURCE_ORDERS = 200;
const MAX_ADDRESSES = 20;

/** Two addresses are the same when their written parts are, ignoring case and spacing (coordinates may drift). */
function addressKey(address: DeliveryAddress): string {
  const part = (value: string) => value.trim().replace(/\s+/g, " ").toLowerCase();
  return [address.street, address.streetOptional, address.city, address.state, address.zipCode, address.country].map(part).join("|");
}

function isDeliveryAddress(value: unknown): value is DeliveryAddress {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ["street", "city", "state", "zipCode", "country"].every((key) => typeof candidate[key] === "string") && typeof candidate.lat === "number" && typeof candidate.lng === "number";
}

/** GET /customer/addresses: delivery addresses of the customer's orders, most recently used first, each once. */
export async function listCustomerAddresses(ctx: RequestContext): Promise<{ addresses: DeliveryAddress[] }> {
  const principal = await authenticateCustomer(ctx);
  const rows = await ctx.deps.database.db
    .select({ deliveryInfo: orders.deliveryInfo })
    .from(orders)
    .where(and(eq(orders.customerId, principal.customerId), isNotNull(orders.deliveryInfo)))
    .orderBy(desc(orders.placedAt), desc(orders.id))
    .limit(ADDRESS_SOURCE_ORDERS);
  const seen = new Set<string>();
  const addresses: DeliveryAddress[] = [];
  for (const row of rows) {
    const address = row.deliveryInfo?.addressData;
    if (!isDeliveryAddress(address)) continue;
    const key = addressKey(address);
    if (seen.has(key)) continue;
    seen.add(key);
    addresses.push({
      street: address.street,
      city: address.city,
      state: address.state,
      zipCode: address.zipCode,
      country: address.country,
      lat: address.lat,
      lng: address.lng,
      streetOptional: typeof address.streetOptional === "string" ? address.streetOptional : "",
    });
    if (addresses.length === MAX_ADDRESSES) break;
  }
  Object.assign(ctx.response.headers, PRIVATE);
  return { addresses };
}
