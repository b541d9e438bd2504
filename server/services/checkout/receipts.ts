import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../../db/client";
import { locations, merchants, orderLines, orders, receipts } from "../../../db/schema";
import { orderNumberOf } from "../../domain/order-number";
import { formatMinor, toDecimalString, type Currency } from "../../domain/money";
import { AppError, notFound } from "../../errors";
import { receiptTotalNames, type ReceiptView } from "../../schemas/checkout";
import { hashToken, sameHash } from "../../security/tokens";
import type { RequestContext } from "../../app/request-context";
import { authenticateCustomer, requireSameMerchant, type CustomerPrincipal } from "../customers/principal";

type ReceiptRow = typeof receipts.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** Who is asking for a receipt: the receipt capability when sent, else the signed-in customer. */
type ReceiptPrincipal = { kind: "receiptCapability"; tokenHash: string } | { kind: "customer"; customer: CustomerPrincipal };

async function receiptPrincipal(ctx: RequestContext): Promise<ReceiptPrincipal | undefined> {
  const token = ctx.credential.receiptToken;
  if (token) return { kind: "receiptCapability", tokenHash: hashToken(token) };
  if (ctx.credential.bearer) return { kind: "customer", customer: await authenticateCustomer(ctx) };
  return undefined;
}

/**
 * Same order of checks as carts: no credential 401; an invalid customer session 401 (before the
 * lookup); unknown receipt 404; the capability of another receipt 403; anything else 401. A
 * capability opens its one receipt and nothing else; a customer opens the receipts of their own
 * orders (another customer's, a guest's or another merchant's: 403).
 */
async function authorizeReceipt(db: Executor, principal: ReceiptPrincipal, receipt: ReceiptRow, order: OrderRow): Promise<void> {
  if (principal.kind === "customer") {
    requireSameMerchant(principal.customer, order.merchantId);
    if (order.customerId !== principal.customer.customerId) throw new AppError("FORBIDDEN", "This receipt belongs to someone else");
    return;
  }
  if (receipt.tokenHash && sameHash(principal.tokenHash, receipt.tokenHash)) return;
  const [other] = await db.select({ id: receipts.id }).from(receipts).where(eq(receipts.tokenHash, principal.tokenHash)).limit(1);
  if (other) throw new AppError("FORBIDDEN", "This receipt token belongs to a different receipt");
  throw new AppError("UNAUTHORIZED", "The receipt token is not valid");
}

/** GET /receipts/{receiptId}: what was bought, what was charged, where, and which card (brand and last 4 only). */
export async function getReceipt(ctx: RequestContext, receiptId: string): Promise<ReceiptView> {
  const principal = await receiptPrincipal(ctx);
  if (!principal) throw new AppError("UNAUTHORIZED", "Send the receipt's X-Receipt-Token (or a customer bearer token)");
  const { db } = ctx.deps.database;
  const [row] = await db
    .select({ receipt: receipts, order: orders, location: locations, merchant: merchants })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .innerJoin(locations, eq(locations.id, orders.locationId))
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(eq(receipts.id, receiptId));
  if (!row) throw notFound("Receipt");
  await authorizeReceipt(db, principal, row.receipt, row.order);
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, row.order.id)).orderBy(asc(orderLines.position));
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return toReceiptView(row.receipt, row.order, row.location, row.merchant, lines);
}

function toReceiptView(
  receipt: ReceiptRow,
  order: OrderRow,
  location: typeof locations.$inferSelect,
  merchant: typeof merchants.$inferSelect,
  lines: (typeof orderLines.$inferSelect)[],
): ReceiptView {
  const currency: Currency = order.currency;
  const money = <K extends string>(name: K, minor: number) =>
    ({ [name]: toDecimalString(minor, currency), [`${name}Formatted`]: formatMinor(minor, currency) }) as Record<K | `${K}Formatted`, string>;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: receipt.id,
    orderId: order.id,
    orderNumber: orderNumberOf(order.id),
    placedAt: order.placedAt.toISOString(),
    readyAt: order.readyAt?.toISOString() ?? null,
    currency,
    merchant: { id: merchant.id, displayName: merchant.displayName, statementDescriptor: order.statementDescriptor },
    location: {
      id: location.id,
      displayName: location.displayName,
      street: location.street,
      city: location.city,
      state: location.state,
      zipCode: location.zipCode,
      country: location.country,
      phone: location.phone,
      timeZone: location.timeZone,
    },
    fulfilment: {
      method: order.fulfilmentMethod,
      pickupType: order.pickupType,
      orderDate: order.orderDate,
      orderTime: order.orderTime,
      deliveryAddress: text(order.deliveryInfo?.addressString),
      tableNumber: text(order.tableServiceInfo?.tableNumber),
      roomNumber: text(order.roomServiceInfo?.roomNumber),
    },
    lines: lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      quantity: line.quantity,
      ...money("unitPrice", line.unitPriceMinor),
      ...money("total", line.totalMinor),
      ...money("discount", line.discountMinor),
      selections: line.selections.map((selection) => ({
        groupName: selection.modifierGroupName,
        optionName: selection.optionName,
        quantity: selection.quantity,
        ...money("price", selection.priceMinor),
      })),
      specialInstructions: line.specialInstructions,
    })),
    totals: Object.assign({}, ...receiptTotalNames.map((name) => money(name, order.totals[name]))) as ReceiptView["totals"],
    discountCode: order.discountCode,
    payment: {
      provider: "CARDPROCESSOR",
      brand: order.cardBrand,
      last4: order.cardLast4,
      ...money("amount", order.amountChargedMinor),
      paidAt: order.placedAt.toISOString(),
    },
  };
}
