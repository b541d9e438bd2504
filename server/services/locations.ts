import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { projection } from "../../db/projection";
import { queryRows } from "../../db/rows";
import { locations, merchants } from "../../db/schema";
import { notFound } from "../errors";

export type LocationRow = typeof locations.$inferSelect;
export type MerchantRow = typeof merchants.$inferSelect;
export type LocationWithMerchant = LocationRow & { merchant: MerchantRow };

// Written once from the schema (db/projection.ts): every ordering session and menu read starts here.
const location = projection(locations, "l", "l_");
const merchant = projection(merchants, "m", "m_");
const byId = sql.raw(`select ${location.text}, ${merchant.text} from locations l join merchants m on m.id = l.merchant_id where l.id = `);
const byIdOrSlug = sql.raw(`select ${location.text}, ${merchant.text} from locations l join merchants m on m.id = l.merchant_id where l.slug = `);

/** A published location by id (or slug, where the path allows it), with its merchant, in one query. */
export async function findLocation(db: Executor, idOrSlug: string, options: { allowSlug: boolean }): Promise<LocationWithMerchant> {
  const rows = await queryRows<Record<string, unknown>>(db, options.allowSlug ? sql`${byIdOrSlug}${idOrSlug} or l.id = ${idOrSlug} limit 2` : sql`${byId}${idOrSlug}`);
  const found = rows.map((row) => ({ ...location.read(row), merchant: merchant.read(row) }));
  const row = found.find((candidate) => candidate.id === idOrSlug) ?? found[0];
  if (!row || !row.published) throw notFound("Location");
  return row;
}
