import { and, asc, desc, eq, gt, inArray, or } from "drizzle-orm";
import Big from "big.js";
import { DateTime } from "luxon";
import { z } from "zod";
import { categories, menus, products } from "../../db/schema";
import type { ModifierGroup } from "../domain/catalog-types";
import { fulfilmentMethods } from "../domain/catalog-types";
import { formatMinor, toDecimalString, type Currency } from "../domain/money";
import { asapAvailable, bookableTimes, isCalendarDate, isMenuAvailableAt, isOpenAt, localDateTime, localToday } from "../domain/schedule";
import { notFound, validationError } from "../errors";
import type { RequestContext } from "../app/request-context";
import { cursorId, cursorInt32, defineCursor } from "./cursor";
import { findLocation, type LocationWithMerchant } from "./locations";

type ProductRow = typeof products.$inferSelect;

export function toProductView(product: ProductRow, currency: Currency) {
  const money = (minor: number) => ({ price: toDecimalString(minor, currency), priceFormatted: formatMinor(minor, currency) });
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    ...money(product.priceMinor),
    imageUrl: product.imageUrl,
    categoryId: product.categoryId,
    available: product.available,
    ...(product.maxQuantity !== null ? { maxQuantity: product.maxQuantity } : {}),
    modifierGroups: product.modifierGroups.map((group: ModifierGroup) => ({
      id: group.id,
      name: group.name,
      minSelections: group.minSelections,
      maxSelections: group.maxSelections,
      maxPerOption: group.maxPerOption,
      options: group.options.map((option) => ({ id: option.id, name: option.name, ...money(option.priceMinor), available: option.available })),
    })),
  };
}

export async function getLocation(ctx: RequestContext, slugOrId: string) {
  const location = await findLocation(ctx.deps.database.db, slugOrId, { allowSlug: true });
  const now = DateTime.fromJSDate(ctx.deps.now(), { zone: location.timeZone });
  return {
    id: location.id,
    slug: location.slug,
    displayName: location.displayName,
    description: location.description,
    merchant: { id: location.merchant.id, slug: location.merchant.slug, displayName: location.merchant.displayName },
    timeZone: location.timeZone,
    currency: location.currency,
    address: { street: location.street, city: location.city, state: location.state, zipCode: location.zipCode, country: location.country },
    coordinates: { lat: location.lat, lng: location.lng },
    phone: location.phone,
    openingHours: ([1, 2, 3, 4, 5, 6, 7] as const).map((weekday) => ({
      weekday,
      windows: location.openingHours[String(weekday) as "1"] ?? [],
    })),
    isOpenNow: isOpenAt(location.openingHours, now),
    fulfillmentMethods: fulfilmentMethods.flatMap((method) => {
      const option = location.fulfilment[method];
      if (!option?.enabled) return [];
      return [
        {
          method,
          feeFix: toDecimalString(option.feeFixMinor, location.currency),
          feeFixFormatted: formatMinor(option.feeFixMinor, location.currency),
          feeRate: option.feeRate,
          leadTimeMinutes: option.leadMinutes,
        },
      ];
    }),
    catalogPublicationRevision: location.catalogRevision,
    commercePolicyRevision: location.policyRevision,
  };
}

/** Resolves the moment a menu read is for: the query's local date/time, or now at the location. */
function menuMoment(location: LocationWithMerchant, now: Date, orderDate?: string, orderTime?: string) {
  const today = localToday(location.timeZone, DateTime.fromJSDate(now));
  const date = orderDate ?? today.date;
  const time = orderTime ?? (orderDate ? "12:00" : today.time);
  const at = localDateTime(location.timeZone, date, time);
  if (!at) throw validationError("orderDate/orderTime do not name a real local time", [{ path: "orderDate", message: "invalid date" }]);
  return { date, time, at };
}

/** Menus available at the given moment, with categories and products: three queries whatever the size. */
export async function getMenus(ctx: RequestContext, input: { locationId: string; orderDate?: string | undefined; orderTime?: string | undefined }) {
  const db = ctx.deps.database.db;
  const location = await findLocation(db, input.locationId, { allowSlug: false });
  const { date, time, at } = menuMoment(location, ctx.deps.now(), input.orderDate, input.orderTime);
  const menuRows = (await db.select().from(menus).where(eq(menus.locationId, location.id)).orderBy(asc(menus.sortOrder), asc(menus.id))).filter((menu) =>
    isMenuAvailableAt(menu.availability, at),
  );
  const menuIds = menuRows.map((menu) => menu.id);
  const [categoryRows, productRows] =
    menuIds.length === 0
      ? [[], []]
      : await Promise.all([
          db.select().from(categories).where(inArray(categories.menuId, menuIds)).orderBy(asc(categories.sortOrder), asc(categories.id)),
          db.select().from(products).where(eq(products.locationId, location.id)).orderBy(asc(products.sortOrder), asc(products.id)),
        ]);
  const productsByCategory = new Map<string, ProductRow[]>();
  for (const product of productRows) productsByCategory.set(product.categoryId, [...(productsByCategory.get(product.categoryId) ?? []), product]);
  return {
    locationId: location.id,
    orderDate: date,
    orderTime: time,
    menus: menuRows.map((menu) => ({
      id: menu.id,
      name: menu.name,
      description: menu.description,
      categories: categoryRows
        .filter((category) => category.menuId === menu.id)
        .map((category) => ({
          id: category.id,
          name: category.name,
          description: category.description,
          products: (productsByCategory.get(category.id) ?? []).map((product) => toProductView(product, location.currency)),
        })),
    })),
  };
}

/** Products in menu order, (sortOrder, id) ascending: the last product of a page. */
const productCursor = defineCursor(
  z.tuple([cursorInt32, cursorId]),
  (product: { sortOrder: number; id: string }) => [product.sortOrder, product.id],
  ([sortOrder, id]) => ({ sortOrder, id }),
);

/** Every product of the location in menu order, a page at a time (keyset pagination). */
export async function listProducts(ctx: RequestContext, input: { locationId: string; categoryId?: string | undefined; limit: number; cursor?: string | undefined }) {
  const db = ctx.deps.database.db;
  const location = await findLocation(db, input.locationId, { allowSlug: false });
  const after = productCursor.decode(input.cursor);
  const rows = await db
    .select()
    .from(products)
    .where(
      and(
        eq(products.locationId, location.id),
        input.categoryId ? eq(products.categoryId, input.categoryId) : undefined,
        after ? or(gt(products.sortOrder, after.sortOrder), and(eq(products.sortOrder, after.sortOrder), gt(products.id, after.id))) : undefined,
      ),
    )
    .orderBy(asc(products.sortOrder), asc(products.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    products: page.map((product) => toProductView(product, location.currency)),
    nextCursor: rows.length > input.limit && last ? productCursor.encode(last) : null,
  };
}

export async function popularProducts(ctx: RequestContext, input: { locationId: string; limit: number }) {
  const db = ctx.deps.database.db;
  const location = await findLocation(db, input.locationId, { allowSlug: false });
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.locationId, location.id), eq(products.available, true)))
    .orderBy(desc(products.popularity), asc(products.id))
    .limit(input.limit);
  return { products: rows.map((product) => toProductView(product, location.currency)), nextCursor: null };
}

export async function getProduct(ctx: RequestContext, input: { locationId: string; productId: string }) {
  const db = ctx.deps.database.db;
  const location = await findLocation(db, input.locationId, { allowSlug: false });
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, input.productId), eq(products.locationId, location.id)));
  if (!product) throw notFound("Product");
  return toProductView(product, location.currency);
}

/** Bookable order times of a date (default: today at the location), per enabled fulfilment method. */
export async function getTimeIntervals(ctx: RequestContext, input: { locationId: string; date?: string | undefined }) {
  const location = await findLocation(ctx.deps.database.db, input.locationId, { allowSlug: false });
  const now = DateTime.fromJSDate(ctx.deps.now(), { zone: location.timeZone });
  const date = input.date ?? localToday(location.timeZone, now).date;
  if (!isCalendarDate(date)) throw validationError("date is not a real calendar date", [{ path: "date", message: "invalid date" }]);
  const isToday = date === localToday(location.timeZone, now).date;
  return {
    locationId: location.id,
    date,
    timeZone: location.timeZone,
    methods: fulfilmentMethods.flatMap((method) => {
      const option = location.fulfilment[method];
      if (!option?.enabled) return [];
      const times = bookableTimes(location.openingHours, location.timeZone, date, now, option).map((time) => ({
        time,
        startsAt: localDateTime(location.timeZone, date, time)?.toISO({ suppressMilliseconds: true }) ?? "",
      }));
      return [{ fulfillmentMethod: method, asapAvailable: isToday && asapAvailable(location.openingHours, now, option.leadMinutes), times }];
    }),
  };
}

export async function getGratuityPolicy(ctx: RequestContext, locationId: string) {
  const location = await findLocation(ctx.deps.database.db, locationId, { allowSlug: false });
  return {
    locationId: location.id,
    currency: location.currency,
    presets: location.gratuity.presets.map((rate) => ({ rate, label: `${new Big(rate).times(100).toString()}%` })),
    defaultRate: location.gratuity.defaultRate,
    allowCustomAmount: location.gratuity.allowCustomAmount,
    maxRate: location.gratuity.maxRate,
  };
}

/** Where this location's storefront lives: its own URL if it has one, else our demo storefront. */
export async function getRedirect(ctx: RequestContext, locationId: string) {
  const location = await findLocation(ctx.deps.database.db, locationId, { allowSlug: false });
  const base = ctx.deps.env.STOREFRONT_BASE_URL ?? ctx.origin;
  return { locationId: location.id, slug: location.slug, url: location.storefrontUrl ?? new URL(`/l/${location.slug}`, base).toString() };
}
