import { asc, eq } from "drizzle-orm";
import type { CountryCode } from "libphonenumber-js";
import type { Executor } from "../../../db/client";
import { locations, merchants } from "../../../db/schema";
import { countryCodeOf } from "../../domain/identifiers";
import { notFound } from "../../errors";

export type SignInMerchant = { id: string; slug: string; displayName: string; country: CountryCode | undefined };

/** The merchant of a sign-in, with the country its phone numbers are read in when written without a country code. */
export async function findMerchantBySlug(db: Executor, slug: string): Promise<SignInMerchant> {
  const [row] = await db
    .select({ id: merchants.id, slug: merchants.slug, displayName: merchants.displayName, country: locations.country })
    .from(merchants)
    .leftJoin(locations, eq(locations.merchantId, merchants.id))
    .where(eq(merchants.slug, slug))
    .orderBy(asc(locations.id))
    .limit(1);
  if (!row) throw notFound("Merchant");
  return { id: row.id, slug: row.slug, displayName: row.displayName, country: row.country ? countryCodeOf(row.country) : undefined };
}

export async function findMerchantById(db: Executor, id: string): Promise<SignInMerchant> {
  const [row] = await db.select({ slug: merchants.slug }).from(merchants).where(eq(merchants.id, id));
  if (!row) throw notFound("Merchant");
  return findMerchantBySlug(db, row.slug);
}
