import { getTableColumns, sql } from "drizzle-orm";
import type { PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { categories, discounts, locations, menus, merchants, products } from "./schema";
import { demoCatalog } from "./seed-data";

/**
 * Builds an upsert's SET clause that copies every column from the proposed row (`excluded`),
 * except those in `keep`. Deriving it from the table means a column added to the schema and the
 * seed data is refreshed on re-seed without anyone remembering to list it here.
 */
function fromExcluded<TTable extends PgTable>(table: TTable, keep: readonly (keyof TTable["_"]["columns"] & string)[]): PgUpdateSetSource<TTable> {
  const set: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (keep.includes(key)) continue;
    set[key] = sql`excluded.${sql.identifier(column.name)}`;
  }
  return set;
}

/**
 * Upserts the demo catalog. Safe to run on every boot: a second run rewrites the same values.
 *
 * Columns the seed does not own are left alone on conflict: keys, creation/update timestamps,
 * the publication flag an operator may have flipped, and the catalog/policy revisions, which
 * other code bumps to invalidate caches and carts. Bumping them here would make every restart
 * look like a catalog change. Rows that are no longer in the seed data are not deleted, since
 * carts may still reference them.
 */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // Parents before children, matching the foreign keys.
    await tx
      .insert(merchants)
      .values(demoCatalog.merchants)
      .onConflictDoUpdate({ target: merchants.id, set: fromExcluded(merchants, ["id", "createdAt"]) });

    await tx
      .insert(locations)
      .values(demoCatalog.locations)
      .onConflictDoUpdate({
        target: locations.id,
        set: fromExcluded(locations, ["id", "catalogRevision", "policyRevision", "published", "updatedAt"]),
      });

    await tx
      .insert(menus)
      .values(demoCatalog.menus)
      .onConflictDoUpdate({ target: menus.id, set: fromExcluded(menus, ["id"]) });

    await tx
      .insert(categories)
      .values(demoCatalog.categories)
      .onConflictDoUpdate({ target: categories.id, set: fromExcluded(categories, ["id"]) });

    await tx
      .insert(products)
      .values(demoCatalog.products)
      .onConflictDoUpdate({ target: products.id, set: fromExcluded(products, ["id"]) });

    // A location's code is the business key (it is what customers type), so conflicts are
    // resolved on it rather than on the synthetic id.
    await tx
      .insert(discounts)
      .values(demoCatalog.discounts)
      .onConflictDoUpdate({
        target: [discounts.locationId, discounts.code],
        set: fromExcluded(discounts, ["id", "locationId", "code"]),
      });
  });
}
