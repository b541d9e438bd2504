import { sql } from "drizzle-orm";
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Currency } from "../../server/domain/money";
import type { FeePolicy, FulfilmentPolicy, GratuityPolicy, ModifierGroup, WeeklyHours, MenuAvailability } from "../../server/domain/catalog-types";

export const merchants = pgTable("merchants", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  displayName: text("display_name").notNull(),
  statementDescriptor: text("statement_descriptor").notNull(),
  /** Loyalty rule: points a signed-in customer earns per whole currency unit of an order's subTotal (0: no programme). */
  loyaltyPointsPerUnit: integer("loyalty_points_per_unit").notNull().default(1),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
}, (table) => [check("merchants_loyalty_rule_nonnegative", sql`${table.loyaltyPointsPerUnit} >= 0`)]);

export const locations = pgTable(
  "locations",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    slug: text("slug").notNull().unique(),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    timeZone: text("time_zone").notNull(),
    currency: text("currency").$type<Currency>().notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    country: text("country").notNull(),
    phone: text("phone").notNull().default(""),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    openingHours: jsonb("opening_hours").$type<WeeklyHours>().notNull(),
    fulfilment: jsonb("fulfilment").$type<FulfilmentPolicy>().notNull(),
    fees: jsonb("fees").$type<FeePolicy>().notNull(),
    gratuity: jsonb("gratuity").$type<GratuityPolicy>().notNull(),
    storefrontUrl: text("storefront_url"),
    /** Bumped by every catalog publication (menus, products, availability). */
    catalogRevision: integer("catalog_revision").notNull().default(1),
    /** Bumped by every commerce-policy change (fees, tax, hours, fulfilment). */
    policyRevision: integer("policy_revision").notNull().default(0),
    published: boolean("published").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("locations_merchant_idx").on(table.merchantId)],
);

export const menus = pgTable(
  "menus",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** null: available whenever the location is open. */
    availability: jsonb("availability").$type<MenuAvailability>(),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (table) => [index("menus_location_idx").on(table.locationId, table.sortOrder)],
);

export const categories = pgTable(
  "categories",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    menuId: text("menu_id")
      .notNull()
      .references(() => menus.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (table) => [index("categories_location_idx").on(table.locationId, table.sortOrder)],
);

export const products = pgTable(
  "products",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    priceMinor: bigint("price_minor", { mode: "number" }).notNull(),
    imageUrl: text("image_url").notNull().default(""),
    available: boolean("available").notNull().default(true),
    /** Most of this product one cart line may hold (limited stock, specials); null: only the cart-wide limit. */
    maxQuantity: integer("max_quantity"),
    /** Higher is more popular; drives /products/popular. */
    popularity: integer("popularity").notNull().default(0),
    sortOrder: integer("sort_order").notNull().default(0),
    modifierGroups: jsonb("modifier_groups").$type<ModifierGroup[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (table) => [
    index("products_location_sort_idx").on(table.locationId, table.sortOrder, table.id),
    index("products_location_popularity_idx").on(table.locationId, table.popularity),
  ],
);

export const discounts = pgTable(
  "discounts",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** Stored upper-case; codes are matched case-insensitively. */
    code: text("code").notNull(),
    /** Fraction of the subtotal, e.g. "0.10", or null for a fixed amount. */
    rate: text("rate"),
    amountMinor: bigint("amount_minor", { mode: "number" }),
    minimumSubtotalMinor: bigint("minimum_subtotal_minor", { mode: "number" }).notNull().default(0),
    active: boolean("active").notNull().default(true),
  },
  (table) => [uniqueIndex("discounts_location_code_idx").on(table.locationId, table.code)],
);
