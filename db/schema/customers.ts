import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { locations, merchants } from "./catalog";
import { orders } from "./orders";

export type OtpChannel = "email" | "sms";
export type OtpPurpose = "login" | "phone_verification";
export type OtpChallengeStatus = "pending" | "used" | "superseded";

/**
 * A customer of one merchant: the same e-mail address at two merchants is two customers. Identity
 * is the e-mail address, or the phone number once it is verified (signing in by phone verifies it);
 * both are unique per merchant through partial indexes.
 */
export const customers = pgTable(
  "customers",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** Lower-cased; null for a customer who signed in by phone and gave no address. */
    email: text("email"),
    /** E.164. Unverified when given as a profile field, verified by a code sent to it. */
    phoneNumber: text("phone_number"),
    phoneNumberVerified: boolean("phone_number_verified").notNull().default(false),
    customerName: text("customer_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    profilePicture: text("profile_picture").notNull().default(""),
    /** The card processor's customer (Stripe `cus_...`), created the first time the customer pays. */
    processorCustomerId: text("processor_customer_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("customers_merchant_email_idx").on(table.merchantId, table.email).where(sql`${table.email} is not null`),
    uniqueIndex("customers_merchant_verified_phone_idx").on(table.merchantId, table.phoneNumber).where(sql`${table.phoneNumberVerified}`),
  ],
);

/**
 * One signed-in session. The bearer JWT names it (`sid`); every authenticated request reads this
 * row by primary key, so logout (revokedAt) takes effect at once, whatever the token's own expiry.
 */
export const customerSessions = pgTable(
  "customer_sessions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    merchantId: text("merchant_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("customer_sessions_customer_idx").on(table.customerId)],
);

/**
 * A one-time code sent to an e-mail address or phone number (its `id` is the API's methodId). Only
 * a keyed hash of the code is stored, bound to the challenge id. `attempts` counts every comparison
 * and is reserved atomically before the comparison, so no more than OTP_MAX_ATTEMPTS guesses are
 * ever checked, even concurrently. `identifierKey` is a keyed hash of the normalised identifier: the
 * per-identifier limits count by it, and these tables hold no address in clear.
 */
export const otpChallenges = pgTable(
  "otp_challenges",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    purpose: text("purpose").$type<OtpPurpose>().notNull(),
    channel: text("channel").$type<OtpChannel>().notNull(),
    identifierKey: text("identifier_key").notNull(),
    /** For phone verification: the signed-in customer who asked. */
    customerId: text("customer_id").references(() => customers.id),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    status: text("status").$type<OtpChallengeStatus>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    index("otp_challenges_identifier_idx").on(table.identifierKey, table.createdAt),
    check("otp_challenges_attempts_nonnegative", sql`${table.attempts} >= 0`),
  ],
);

/** Wrong codes per identifier, counted across challenges, IPs and instances (OTP_MAX_FAILURES_PER_HOUR). */
export const otpFailures = pgTable(
  "otp_failures",
  {
    id: text("id").primaryKey(),
    identifierKey: text("identifier_key").notNull(),
    challengeId: text("challenge_id").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("otp_failures_identifier_idx").on(table.identifierKey, table.failedAt)],
);

/**
 * Messages of the development outbox, the embedded default one-time-code delivery (listed at
 * /api/dev/outbox and /dev/outbox while it is the configured delivery).
 */
export const devOutboxMessages = pgTable(
  "dev_outbox_messages",
  {
    id: text("id").primaryKey(),
    /** Insertion order: "newest first" even for messages sent within the same millisecond. */
    sequence: bigserial("sequence", { mode: "number" }).notNull(),
    channel: text("channel").$type<OtpChannel>().notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("dev_outbox_sequence_idx").on(table.sequence)],
);

/**
 * Loyalty points, append-only: entries are inserted by the order-completion hook and never updated
 * or deleted (no code path does either). `order_id` is unique, so an order earns once even if the
 * hook ran twice; the balance is the sum of a customer's entries.
 */
export const loyaltyLedgerEntries = pgTable(
  "loyalty_ledger_entries",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    merchantId: text("merchant_id").notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    orderId: text("order_id")
      .unique()
      .references(() => orders.id),
    points: integer("points").notNull(),
    reason: text("reason").$type<"order">().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("loyalty_ledger_customer_idx").on(table.customerId, table.createdAt), check("loyalty_ledger_points_nonzero", sql`${table.points} <> 0`)],
);
