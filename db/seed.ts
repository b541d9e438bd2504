import { getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { categories, discounts, locations, menus, merchants, products } from "./schema";
import { demoCatalog } from "./seed-data";

/** The columns an upsert copies from the proposed row (`excluded`): every one but those in `keep`. */
function seededColumns<TTable extends PgTable>(table: TTable, keep: readonly (keyof TTable["_"]["columns"] & string)[]): string[] {
  return Object.entries(getTableColumns(table))
    .filter(([key]) => !keep.includes(key))
    .map(([, column]) => column.name);
}

/**
 * An upsert's SET clause that copies every seeded column from the proposed row, and its WHERE: only a row
 * whose seeded columns differ is rewritten (and returned). Deriving both from the table means a column added
 * to the schema and the seed data is refreshed on re-seed without anyone remembering to list it here.
 */
function fromExcluded<TTable extends PgTable>(table: TTable, keep: readonly (keyof TTable["_"]["columns"] & string)[]): { set: PgUpdateSetSource<TTable>; setWhere: SQL } {
  const set: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!keep.includes(key)) set[key] = sql`excluded.${sql.identifier(column.name)}`;
  }
  const columns = seededColumns(table, keep);
  const stored = sql.join(columns.map((name) => sql`${table}.${sql.identifier(name)}`), sql`, `);
  const proposed = sql.join(columns.map((name) => sql`excluded.${sql.identifier(name)}`), sql`, `);
  return { set, setWhere: sql`(${stored}) is distinct from (${proposed})` };
}

/** Whether an upsert's returned row was inserted rather than updated (a new row has no deleting transaction). */
const inserted = sql<boolean>`xmax = 0`;

/**
 * Upserts the demo catalog. Safe to run on every boot: a run that finds the seeded values in place
 * writes nothing and bumps nothing.
 *
 * Columns the seed does not own are left alone on conflict: keys, creation/update timestamps, the
 * publication flag an operator may have flipped, and the catalog/policy revisions. Where a run does
 * change rows of an existing location (an edited value restored, a product added), it bumps that
 * location's revisions as a publication would (server/catalog-admin/publish.ts): catalog rows (menus,
 * categories, products, discounts) the catalog revision, the location's or its merchant's own row the
 * policy revision. Instances cache catalog and location data by those revisions, and carts compare
 * them with the ones they were priced against: a change under the same revision would be priced by
 * one instance and not another, and never reported to a cart. Rows that are no longer in the seed
 * data are not deleted, since carts may still reference them.
 */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // Parents before children, matching the foreign keys.
    const merchantsChanged = await tx
      .insert(merchants)
      .values(demoCatalog.merchants)
      .onConflictDoUpdate({ target: merchants.id, ...fromExcluded(merchants, ["id", "createdAt"]) })
      .returning({ id: merchants.id, inserted });

    const locationsWritten = await tx
      .insert(locations)
      .values(demoCatalog.locations)
      .onConflictDoUpdate({ target: locations.id, ...fromExcluded(locations, ["id", "catalogRevision", "policyRevision", "published", "updatedAt"]) })
      .returning({ id: locations.id, inserted });
    const newLocations = new Set(locationsWritten.filter((row) => row.inserted).map((row) => row.id));

    const catalogWritten = [
      ...(await tx
        .insert(menus)
        .values(demoCatalog.menus)
        .onConflictDoUpdate({ target: menus.id, ...fromExcluded(menus, ["id"]) })
        .returning({ locationId: menus.locationId })),
      ...(await tx
        .insert(categories)
        .values(demoCatalog.categories)
        .onConflictDoUpdate({ target: categories.id, ...fromExcluded(categories, ["id"]) })
        .returning({ locationId: categories.locationId })),
      ...(await tx
        .insert(products)
        .values(demoCatalog.products)
        .onConflictDoUpdate({ target: products.id, ...fromExcluded(products, ["id"]) })
        .returning({ locationId: products.locationId })),
      // A location's code is the business key (it is what customers type), so conflicts are
      // resolved on it rather than on the synthetic id.
      ...(await tx
        .insert(discounts)
        .values(demoCatalog.discounts)
        .onConflictDoUpdate({ target: [discounts.locationId, discounts.code], ...fromExcluded(discounts, ["id", "locationId", "code"]) })
        .returning({ locationId: discounts.locationId })),
    ];

    const existing = (ids: Iterable<string>) => [...new Set(ids)].filter((id) => !newLocations.has(id));
    const catalogChanged = existing(catalogWritten.map((row) => row.locationId));
    const changedMerchants = merchantsChanged.filter((row) => !row.inserted).map((row) => row.id);
    const policyChanged = existing([
      ...locationsWritten.filter((row) => !row.inserted).map((row) => row.id),
      ...demoCatalog.locations.filter((location) => changedMerchants.includes(location.merchantId)).map((location) => location.id),
    ]);
    if (catalogChanged.length > 0) {
      await tx.update(locations).set({ catalogRevision: sql`${locations.catalogRevision} + 1`, updatedAt: new Date() }).where(inArray(locations.id, catalogChanged));
    }
    if (policyChanged.length > 0) {
      await tx.update(locations).set({ policyRevision: sql`${locations.policyRevision} + 1`, updatedAt: new Date() }).where(inArray(locations.id, policyChanged));
    }
  });
}
