import { z } from "zod";
import { productListSchema, productSchema, locationSchema, menusSchema, timeIntervalsSchema, gratuitySchema, redirectSchema } from "../schemas/catalog";
import { localDate, localTime, locationIdParam, locationSlugOrIdParam, pageCursor, pageLimit, pathId, productIdParam } from "../schemas/common";
import * as catalog from "../services/catalog";
import { router } from "../trpc/init";
import { readProcedure } from "../trpc/procedures";
import { responseSchema } from "../trpc/response-validation";
import { readMeta, type OperationTag } from "./meta";

const tags: OperationTag[] = ["Catalog"];
const limit = (fallback: number, max: number) => pageLimit(fallback, max).meta({ description: "Maximum number of items to return." });
const dateQuery = localDate.meta({ description: "Local date at the location, YYYY-MM-DD. Defaults to today." }).optional();

export const catalogRouter = router({
  location: readProcedure(readMeta({ method: "GET", path: "/locations/{locationSlugOrId}", tags, summary: "Read a location (by id or slug) with its merchant, hours and fulfilment methods" }))
    .input(z.object({ locationSlugOrId: locationSlugOrIdParam }))
    .output(responseSchema(locationSchema))
    .query(({ ctx, input }) => catalog.getLocation(ctx, input.locationSlugOrId)),

  menus: readProcedure(
    readMeta({
      method: "GET",
      path: "/locations/{locationId}/menus",
      tags,
      summary: "Menus available at a moment",
      description: "Without orderDate/orderTime: the menus available now at the location. orderDate alone means noon that day.",
    }),
  )
    .input(z.object({ locationId: locationIdParam, orderDate: dateQuery, orderTime: localTime.meta({ description: "Local time at the location, HH:MM (24-hour)." }).optional() }))
    .output(responseSchema(menusSchema))
    .query(({ ctx, input }) => catalog.getMenus(ctx, input)),

  // Literal paths before parameter paths: the REST router takes the first match.
  popularProducts: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/products/popular", tags, summary: "Most popular available products" }))
    .input(z.object({ locationId: locationIdParam, limit: limit(10, 50) }))
    .output(responseSchema(productListSchema))
    .query(({ ctx, input }) => catalog.popularProducts(ctx, input)),

  products: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/products", tags, summary: "All products in menu order, paginated by cursor" }))
    .input(z.object({ locationId: locationIdParam, categoryId: pathId.meta({ description: "Only products of this category." }).optional(), limit: limit(100, 500), cursor: pageCursor }))
    .output(responseSchema(productListSchema))
    .query(({ ctx, input }) => catalog.listProducts(ctx, input)),

  product: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/products/{productId}", tags, summary: "One product with its modifier groups" }))
    .input(z.object({ locationId: locationIdParam, productId: productIdParam }))
    .output(responseSchema(productSchema))
    .query(({ ctx, input }) => catalog.getProduct(ctx, input)),

  timeIntervals: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/time-intervals", tags, summary: "Bookable order times of a date, per fulfilment method, in the location's time zone",
      description:
        "`times`: the slots of the date inside the opening hours, at least the method's lead time from now, for dates from the location's today up to 30 days after it (later dates list none). `startsAt` is the slot's instant (on a DST fall-back day a repeated wall-clock time is its later occurrence). `asapAvailable`: the date is today and an order placed now would be ready before the location closes.",
    }))
    .input(z.object({ locationId: locationIdParam, date: dateQuery }))
    .output(responseSchema(timeIntervalsSchema))
    .query(({ ctx, input }) => catalog.getTimeIntervals(ctx, input)),

  gratuity: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/gratuity", tags, summary: "Gratuity presets and policy" }))
    .input(z.object({ locationId: locationIdParam }))
    .output(responseSchema(gratuitySchema))
    .query(({ ctx, input }) => catalog.getGratuityPolicy(ctx, input.locationId)),

  redirect: readProcedure(readMeta({ method: "GET", path: "/locations/{locationId}/redirect", tags, summary: "Where the storefront for this location lives" }))
    .input(z.object({ locationId: locationIdParam }))
    .output(responseSchema(redirectSchema))
    .query(({ ctx, input }) => catalog.getRedirect(ctx, input.locationId)),
});
