import { eq, or } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { locations, merchants } from "../../db/schema";
import { notFound } from "../errors";

export type LocationRow = typeof locations.$inferSelect;
export type MerchantRow = typeof merchants.$inferSelect;
export type LocationWithMerchant = LocationRow & { merchant: MerchantRow };

/** A published location by id (or slug, where the path allows it), with its merchant, in one query. */
export async function findLocation(db: Executor, idOrSlug: string, options: { allowSlug: boolean }): Promise<LocationWithMerchant> {
  const rows = await db
    .select({ location: locations, merchant: merchants })
    .from(locations)
    .innerJoin(merchants, eq(merchants.id, locations.merchantId))
    .where(options.allowSlug ? or(eq(locations.id, idOrSlug), eq(locations.slug, idOrSlug)) : eq(locations.id, idOrSlug))
    .limit(2);
  const row = rows.find((candidate) => candidate.location.id === idOrSlug) ?? rows[0];
  if (!row || !row.location.published) throw notFound("Location");
  return { ...row.location, merchant: row.merchant };
}
