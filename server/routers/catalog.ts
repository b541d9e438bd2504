import { z } from "zod";
import { productListSchema, productSchema, locationSchema, menusSchema, timeIntervalsSchema, gratuitySchema, redirectSchema } from "../schemas/catalog";
import { localDate, localTime, pathId } from "../schemas/common";
import * as catalog from "../services/catalog";
import { procedure, router } from "../trpc/init";
import { responseSchema } from "../trpc/response-validation";
import { readMeta } from "./meta";

const tags = ["Catalog"];
const limit = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export const catalogRouter = router({
  location: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationSlugOrId}", tags, summary: "Read a location (by id or slug) with its merchant, hours and fulfilment methods" }))
    .input(z.object({ locationSlugOrId: pathId }))
    .output(responseSchema(locationSchema))
    .query(({ ctx, input }) => catalog.getLocation(ctx, input.locationSlugOrId)),

  menus: procedure
    .meta(
      readMeta({
        method: "GET",
        path: "/locations/{locationId}/menus",
        tags,
        summary: "Menus available at a moment",
        description: "Without orderDate/orderTime: the menus available now at the location. orderDate alone means noon that day.",
      }),
    )
    .input(z.object({ locationId: pathId, orderDate: localDate.optional(), orderTime: localTime.optional() }))
    .output(responseSchema(menusSchema))
    .query(({ ctx, input }) => catalog.getMenus(ctx, input)),

  // Literal paths before parameter paths: the REST router takes the first match.
  popularProducts: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/products/popular", tags, summary: "Most popular available products" }))
    .input(z.object({ locationId: pathId, limit: limit(10, 50) }))
    .output(responseSchema(productListSchema))
    .query(({ ctx, input }) => catalog.popularProducts(ctx, input)),

  products: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/products", tags, summary: "All products in menu order, paginated by cursor" }))
    .input(z.object({ locationId: pathId, categoryId: pathId.optional(), limit: limit(100, 500), cursor: z.string().max(512).optional() }))
    .output(responseSchema(productListSchema))
    .query(({ ctx, input }) => catalog.listProducts(ctx, input)),

  product: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/products/{productId}", tags, summary: "One product with its modifier groups" }))
    .input(z.object({ locationId: pathId, productId: pathId }))
    .output(responseSchema(productSchema))
    .query(({ ctx, input }) => catalog.getProduct(ctx, input)),

  timeIntervals: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/time-intervals", tags, summary: "Bookable order times of a date, per fulfilment method, in the location's time zone" }))
    .input(z.object({ locationId: pathId, date: localDate.optional() }))
    .output(responseSchema(timeIntervalsSchema))
    .query(({ ctx, input }) => catalog.getTimeIntervals(ctx, input)),

  gratuity: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/gratuity", tags, summary: "Gratuity presets and policy" }))
    .input(z.object({ locationId: pathId }))
    .output(responseSchema(gratuitySchema))
    .query(({ ctx, input }) => catalog.getGratuityPolicy(ctx, input.locationId)),

  redirect: procedure
    .meta(readMeta({ method: "GET", path: "/locations/{locationId}/redirect", tags, summary: "Where the storefront for this location lives" }))
    .input(z.object({ locationId: pathId }))
    .output(responseSchema(redirectSchema))
    .query(({ ctx, input }) => catalog.getRedirect(ctx, input.locationId)),
});
