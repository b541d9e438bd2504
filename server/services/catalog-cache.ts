import { and, eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Executor } from "../../db/client";
import { products } from "../../db/schema";

export type ProductRow = typeof products.$inferSelect;

/**
 * Product rows kept in memory, keyed by location, product and the location's catalog revision they
 * were read at. Every catalog change is a publication that bumps that revision in the same
 * transaction as the change (server/catalog-admin/publish.ts), so an entry never outlives its
 * revision: a cart mutation reads its location (and so the current revision) in its first statement,
 * and after a publication its first lookup misses and reads the new row. A cart mutation thus reads
 * no product row in the steady state (issue 16: one statement fewer per add item).
 *
 * A change made to `products` behind publication's back (plain SQL) is not seen until the revision
 * moves, exactly as carts would not re-price for it either. Unknown products are not kept, so a
 * client cannot fill the cache with ids that do not exist.
 */
export type CatalogCache = {
  product: (db: Executor, at: { locationId: string; catalogRevision: number }, productId: string) => Promise<ProductRow | undefined>;
};

/** Bounds memory whatever the menus hold; least recently used entries go first. */
const MAX_BYTES = 16 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 256;

export function createCatalogCache(): CatalogCache {
  const cache = new LRUCache<string, ProductRow>({
    maxSize: MAX_BYTES,
    sizeCalculation: (row, key) => JSON.stringify(row).length * 2 + key.length * 2 + ENTRY_OVERHEAD_BYTES,
  });
  return {
    async product(db, at, productId) {
      const key = `${at.locationId}\u0000${at.catalogRevision}\u0000${productId}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const [row] = await db
        .select()
        .from(products)
        .where(and(eq(products.id, productId), eq(products.locationId, at.locationId)));
      if (row) cache.set(key, row);
      return row;
    },
  };
}
