import { bigint, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { Currency } from "../../server/domain/money";
import type { AppliedDiscount, CartLine, CartStatus, FulfilmentMethod, GratuityChoice, PickupType, PricedCart, PricedLine } from "../../server/domain/cart-types";
import type { DeliveryInfo, DeliveryQuote } from "../../server/domain/delivery";
import type { CatalogRevalidation } from "../../server/domain/revalidation";
import { locations } from "./catalog";

/** A cart's totals as stored: its priced lines are kept with the lines themselves (cartLines). */
export type StoredPricedCart = Omit<PricedCart, "lines">;

/**
 * A cart is one row, and its lines are rows of `cart_lines` (migration 0008). Every change of a cart
 * is one statement: the compare-and-set UPDATE on `revision`, with the lines it changes written in
 * the same statement only if that UPDATE wrote (server/services/cart-lines-write.ts), so it can never
 * leave half a change behind.
 *
 * `priced` is `json`, not `jsonb` (migration 0006): no SQL looks inside it, and `json` keeps the text
 * as written, so Postgres neither converts it to jsonb's binary form on the way in nor back to text on
 * the way out.
 */
export const carts = pgTable(
  "carts",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    merchantId: text("merchant_id").notNull(),
    status: text("status").$type<CartStatus>().notNull(),
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    /** SHA-256 of the cart capability; the token itself is never stored. */
    tokenHash: text("token_hash").unique(),
    customerId: text("customer_id"),
    currency: text("currency").$type<Currency>().notNull(),
    restaurantDisplayName: text("restaurant_display_name").notNull(),
    statementDescriptor: text("statement_descriptor").notNull(),
    fulfilmentMethod: text("fulfilment_method").$type<FulfilmentMethod>().notNull(),
    fulfillmentIdentifier: text("fulfillment_identifier").notNull(),
    marketplaceId: text("marketplace_id"),
    pickupType: text("pickup_type").$type<PickupType>().notNull(),
    orderDate: text("order_date").notNull(),
    orderTime: text("order_time").notNull(),
    discount: jsonb("discount").$type<AppliedDiscount>(),
    gratuity: jsonb("gratuity").$type<GratuityChoice>(),
    courierTipMinor: bigint("courier_tip_minor", { mode: "number" }),
    deliveryInfo: jsonb("delivery_info").$type<DeliveryInfo>(),
    deliveryQuote: jsonb("delivery_quote").$type<DeliveryQuote>(),
    tableServiceInfo: jsonb("table_service_info").$type<Record<string, unknown>>(),
    roomServiceInfo: jsonb("room_service_info").$type<Record<string, unknown>>(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    priced: json("priced").$type<StoredPricedCart>().notNull(),
    quoteFingerprint: text("quote_fingerprint"),
    quoteExpiresAt: timestamp("quote_expires_at", { withTimezone: true }),
    catalogRevision: integer("catalog_revision").notNull(),
    policyRevision: integer("policy_revision").notNull(),
    catalogRevalidation: jsonb("catalog_revalidation").$type<CatalogRevalidation>(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("carts_location_idx").on(table.locationId),
    index("carts_status_expires_idx").on(table.status, table.expiresAt),
    index("carts_customer_idx").on(table.customerId),
  ],
);

/** A cart as the service reads it: its row, with its lines and every priced line (cartLines) in order. */
export type CartWithLines = Omit<typeof carts.$inferSelect, "priced"> & { lines: CartLine[]; priced: PricedCart };

/**
 * A cart's lines, one row each, with the priced form each was last priced to: a change of one line
 * writes one row, whatever the cart holds. (Until migration 0008 the lines were one JSON array on the
 * cart row, and at 100 lines Postgres rewrote about 70 KB of it on every change.) A cart reads them back
 * in `seq` order; a line keeps its `seq` while it lives, and a new line takes one past the cart's
 * highest. The service changes rows only in the statement that changes their cart's row, and a statement
 * that changes them without it moves the cart to its next revision (migration 0009, a trigger): so the
 * cart row's version (revision, xmin) names its lines too (server/services/cart-access.ts).
 *
 * `line` and `priced` are `json`: no SQL looks inside them, and the text is kept as written.
 */
export const cartLines = pgTable(
  "cart_lines",
  {
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    lineId: text("line_id").notNull(),
    seq: integer("seq").notNull(),
    line: json("line").$type<CartLine>().notNull(),
    priced: json("priced").$type<PricedLine>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.cartId, table.lineId] }), index("cart_lines_order_idx").on(table.cartId, table.seq)],
);

/**
 * Stored outcomes of writes, keyed by caller and Idempotency-Key, with the operation they answered.
 * A record is claimed and written in the same transaction as the change it describes, so it exists
 * exactly when the change does.
 */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    scope: text("scope").notNull(),
    operation: text("operation").notNull(),
    key: text("key").notNull(),
    requestFingerprint: text("request_fingerprint").notNull(),
    statusCode: integer("status_code").notNull(),
    /** The response body, sealed with AES-256-GCM: it may hold a one-time capability. */
    responseSealed: text("response_sealed").notNull(),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    // One record per caller and key, whatever the operation: reusing a key for another operation is
    // refused, and a request claims its key with one insert that conflicts on exactly this.
    primaryKey({ columns: [table.scope, table.key] }),
    index("idempotency_expires_idx").on(table.expiresAt),
  ],
);

/**
 * A key held by a write that acts outside the database before it commits (a payment, a payment
 * session, a courier quote): such a write cannot hold its key's record claim across the outside call,
 * so it takes a lease first, and a second request with the same key is refused (409) instead of
 * running too. The lease is dropped when the write fails, and expires otherwise: once the write's
 * record is stored, the record answers every later request of the key.
 */
export const idempotencyLeases = pgTable(
  "idempotency_leases",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestFingerprint: text("request_fingerprint").notNull(),
    /** Random per request: only the request that took the lease drops it. */
    holder: text("holder").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] }), index("idempotency_leases_expires_idx").on(table.expiresAt)],
);
