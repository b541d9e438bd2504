import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { FulfilmentMethod, LineSelection, PickupType, PricedCart } from "../../server/domain/cart-types";
import type { Currency } from "../../server/domain/money";
import type { IntentTerms } from "../../server/domain/payments";
import { carts } from "./carts";

/**
 * A processor call recorded before it is made (with the idempotency key it will carry), so a crash
 * between the call and the recording of its result is recovered by repeating the same call.
 */
export type PendingIntentOperation =
  | { op: "create"; idempotencyKey: string; terms: IntentTerms }
  | { op: "update"; idempotencyKey: string; intentId: string; terms: IntentTerms }
  | { op: "cancel"; idempotencyKey: string; intentId: string };

/**
 * The cart's PaymentIntent: one row per cart, one live intent. An intent is replaced only after it
 * was canceled because its authorization no longer matched the cart. `version` is compared and set
 * by every change, so two requests planning processor calls for one cart cannot both record one.
 */
export const paymentSessions = pgTable("payment_sessions", {
  cartId: text("cart_id")
    .primaryKey()
    .references(() => carts.id),
  processor: text("processor").$type<"stripe" | "simulated">().notNull(),
  intentId: text("intent_id").unique(),
  /** What the intent carries, as last reported by the processor. */
  amountMinor: bigint("amount_minor", { mode: "number" }),
  currency: text("currency"),
  quoteFingerprint: text("quote_fingerprint"),
  version: integer("version").notNull().default(1),
  pending: jsonb("pending").$type<PendingIntentOperation>(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * `needs_review`: a pending attempt the reconciliation job could not carry to an outcome while the
 * card may hold money (server/services/checkout/finalizer.ts `releaseOrPark`): the cart stays
 * LOCKED, out of every automatic path, until someone resolves it by hand.
 */
export type PaymentAttemptStatus = "pending" | "succeeded" | "failed" | "needs_review";

/**
 * One reported payment of a cart (by the client, or discovered from a webhook). At most one is
 * pending per cart, enforced by the partial unique index: the cart is LOCKED while it is.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    id: text("id").primaryKey(),
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id),
    intentId: text("intent_id").notNull(),
    source: text("source").$type<"client" | "webhook">().notNull(),
    paymentMethodId: text("payment_method_id"),
    /** Key of the server-side confirmation, recorded before the call. */
    confirmKey: text("confirm_key"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    status: text("status").$type<PaymentAttemptStatus>().notNull(),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("payment_attempts_one_pending_idx").on(table.cartId).where(sql`${table.status} = 'pending'`),
    index("payment_attempts_cart_idx").on(table.cartId, table.createdAt),
  ],
);

export type OrderTotals = Omit<PricedCart, "lines">;

/** A paid cart. `cart_id` and `payment_intent_id` are unique: one order per paid cart, one per charge. */
export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    cartId: text("cart_id")
      .notNull()
      .unique()
      .references(() => carts.id),
    attemptId: text("attempt_id")
      .notNull()
      .unique()
      .references(() => paymentAttempts.id),
    locationId: text("location_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    /** Copied from the cart: orders paid while signed in belong to the customer. */
    customerId: text("customer_id"),
    currency: text("currency").$type<Currency>().notNull(),
    restaurantDisplayName: text("restaurant_display_name").notNull(),
    statementDescriptor: text("statement_descriptor").notNull(),
    marketplaceId: text("marketplace_id"),
    fulfilmentMethod: text("fulfilment_method").$type<FulfilmentMethod>().notNull(),
    pickupType: text("pickup_type").$type<PickupType>().notNull(),
    orderDate: text("order_date").notNull(),
    orderTime: text("order_time").notNull(),
    deliveryInfo: jsonb("delivery_info").$type<Record<string, unknown>>(),
    tableServiceInfo: jsonb("table_service_info").$type<Record<string, unknown>>(),
    roomServiceInfo: jsonb("room_service_info").$type<Record<string, unknown>>(),
    discountCode: text("discount_code"),
    quoteFingerprint: text("quote_fingerprint").notNull(),
    /** Every total of the priced cart, in minor units, as charged. */
    totals: jsonb("totals").$type<OrderTotals>().notNull(),
    amountChargedMinor: bigint("amount_charged_minor", { mode: "number" }).notNull(),
    processor: text("processor").$type<"stripe" | "simulated">().notNull(),
    paymentIntentId: text("payment_intent_id").notNull().unique(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    placedAt: timestamp("placed_at", { withTimezone: true }).notNull(),
    /** When the restaurant accepts (or, with the simulated kitchen, is scheduled to accept) the order. */
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    /** When the order should be ready (delivery: arrive), fixed at placement; null on orders placed before it was kept. */
    readyAt: timestamp("ready_at", { withTimezone: true }),
  },
  (table) => [
    // (customer, placed_at, id) matches "a customer's orders, newest first" with its id tie-break, so the
    // paginated list is read in index order with no sort.
    index("orders_customer_idx").on(table.customerId, table.placedAt, table.id),
    index("orders_location_idx").on(table.locationId, table.placedAt),
    check("orders_amount_matches_total", sql`${table.amountChargedMinor} = (${table.totals}->>'orderTotalWithServiceFee')::bigint`),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    position: integer("position").notNull(),
    cartLineId: text("cart_line_id").notNull(),
    productId: text("product_id").notNull(),
    categoryId: text("category_id").notNull(),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    basePriceMinor: bigint("base_price_minor", { mode: "number" }).notNull(),
    unitPriceMinor: bigint("unit_price_minor", { mode: "number" }).notNull(),
    totalMinor: bigint("total_minor", { mode: "number" }).notNull(),
    discountMinor: bigint("discount_minor", { mode: "number" }).notNull(),
    selections: jsonb("selections").$type<LineSelection[]>().notNull(),
    specialInstructions: text("special_instructions").notNull(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.position] })],
);

export const receipts = pgTable("receipts", {
  id: text("id").primaryKey(),
  orderId: text("order_id")
    .notNull()
    .unique()
    .references(() => orders.id),
  /**
   * SHA-256 of the receipt capability. Filled the first time the capability is handed to the cart's
   * credential (it is derived from that credential, see server/services/checkout/receipt-token.ts).
   */
  tokenHash: text("token_hash").unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

export const ratings = pgTable(
  "ratings",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id),
    rating: integer("rating").notNull(),
    comment: text("comment"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [check("ratings_rating_range", sql`${table.rating} between 1 and 5`)],
);
