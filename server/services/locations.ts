import type { Executor } from "../../db/client";
import { projection } from "../../db/projection";
import { fragment, rawFragment } from "../../db/fragment";
import { fragmentRows } from "../../db/rows";
import { locations, merchants } from "../../db/schema";
import { notFound } from "../errors";
import { readAhead } from "./read-ahead";

export type LocationRow = typeof locations.$inferSelect;
export type MerchantRow = typeof merchants.$inferSelect;
export type LocationWithMerchant = LocationRow & { merchant: MerchantRow };

// Written once from the schema (db/projection.ts): every ordering session and menu read starts here.
const location = projection(locations, "l", "l_");
const merchant = projection(merchants, "m", "m_");
const byId = rawFragment(`select ${location.text}, ${merchant.text} from locations l join merchants m on m.id = l.merchant_id where l.id = `);
const byIdOrSlug = rawFragment(`select ${location.text}, ${merchant.text} from locations l join merchants m on m.id = l.merchant_id where l.slug = `);

const rowById = rawFragment(`select ${location.text} from locations l where l.id = `);

/** A location's own row by id, published or not: the location of a cart, which a read of the cart still shows. */
export async function locationRow(db: Executor, id: string): Promise<LocationRow> {
  const [row] = await fragmentRows<Record<string, unknown>>(db, fragment`${rowById}${id}`);
  if (!row) throw notFound("Location");
  return location.read(row);
}

/** The read of a location by id, which a write's kind can send with the Idempotency-Key's claim (./read-ahead.ts). */
export const locationReadAhead = readAhead((db: Executor, id: string) => fragmentRows<Record<string, unknown>>(db, fragment`${byId}${id}`));

/** A published location by id (or slug, where the path allows it), with its merchant, in one query. */
export async function findLocation(db: Executor, idOrSlug: string, options: { allowSlug: boolean }): Promise<LocationWithMerchant> {
  const rows = options.allowSlug ? await fragmentRows<Record<string, unknown>>(db, fragment`${byIdOrSlug}${idOrSlug} or l.id = ${idOrSlug} limit 2`) : await locationReadAhead.read(db, idOrSlug);
  const found = rows.map((row) => ({ ...location.read(row), merchant: merchant.read(row) }));
  const row = found.find((candidate) => candidate.id === idOrSlug) ?? found[0];
  if (!row || !row.published) throw notFound("Location");
  return row;
}
