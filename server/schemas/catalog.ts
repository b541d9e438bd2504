import { z } from "zod";
import { currencySchema, dateTime, decimalString, fulfilmentMethodSchema, identifier, localDate, localTime } from "./common";

export const modifierOptionSchema = z.strictObject({
  id: identifier,
  name: z.string(),
  price: decimalString,
  priceFormatted: z.string(),
  available: z.boolean(),
});

export const productSchema = z
  .strictObject({
    id: identifier,
    name: z.string(),
    description: z.string(),
    price: decimalString,
    priceFormatted: z.string(),
    imageUrl: z.string(),
    categoryId: identifier,
    available: z.boolean(),
    maxQuantity: z.number().int().min(1).optional().meta({ description: "Most of this product one cart line may hold; absent: only the cart-wide limit applies." }),
    modifierGroups: z.array(
      z.strictObject({
        id: identifier,
        name: z.string(),
        minSelections: z.number().int().min(0),
        maxSelections: z.number().int().min(0),
        maxPerOption: z.number().int().min(1),
        options: z.array(modifierOptionSchema),
      }),
    ),
  })
  .meta({ id: "Product" });

const window = z.strictObject({ opens: localTime, closes: z.string() });

export const locationSchema = z
  .strictObject({
    id: identifier,
    slug: z.string(),
    displayName: z.string(),
    description: z.string(),
    merchant: z.strictObject({ id: identifier, slug: z.string(), displayName: z.string() }),
    timeZone: z.string(),
    currency: currencySchema,
    address: z.strictObject({ street: z.string(), city: z.string(), state: z.string(), zipCode: z.string(), country: z.string() }),
    coordinates: z.strictObject({ lat: z.number(), lng: z.number() }),
    phone: z.string(),
    openingHours: z.array(z.strictObject({ weekday: z.number().int().min(1).max(7), windows: z.array(window) })),
    isOpenNow: z.boolean(),
    fulfillmentMethods: z.array(
      z.strictObject({
        method: fulfilmentMethodSchema,
        feeFix: decimalString,
        feeFixFormatted: z.string(),
        feeRate: decimalString,
        leadTimeMinutes: z.number().int(),
      }),
    ),
    catalogPublicationRevision: z.number().int().min(1),
    commercePolicyRevision: z.number().int().min(0),
  })
  .meta({ id: "Location" });

export const menusSchema = z
  .strictObject({
    locationId: identifier,
    orderDate: localDate,
    orderTime: localTime,
    menus: z.array(
      z.strictObject({
        id: identifier,
        name: z.string(),
        description: z.string(),
        categories: z.array(z.strictObject({ id: identifier, name: z.string(), description: z.string(), products: z.array(productSchema) })),
      }),
    ),
  })
  .meta({ id: "MenuList" });

export const productListSchema = z
  .strictObject({
    products: z.array(productSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` to read the next page; null on the last page." }),
  })
  .meta({ id: "ProductList" });

export const timeIntervalsSchema = z
  .strictObject({
    locationId: identifier,
    date: localDate,
    timeZone: z.string(),
    methods: z.array(
      z.strictObject({
        fulfillmentMethod: fulfilmentMethodSchema,
        asapAvailable: z.boolean(),
        times: z.array(z.strictObject({ time: localTime, startsAt: dateTime })),
      }),
    ),
  })
  .meta({ id: "TimeIntervals" });

export const gratuitySchema = z
  .strictObject({
    locationId: identifier,
    currency: currencySchema,
    presets: z.array(z.strictObject({ rate: decimalString, label: z.string() })),
    defaultRate: decimalString.nullable(),
    allowCustomAmount: z.boolean(),
    maxRate: decimalString,
  })
  .meta({ id: "GratuityPolicy" });

export const redirectSchema = z
  .strictObject({ locationId: identifier, slug: z.string(), url: z.url() })
  .meta({ id: "StorefrontRedirect" });
