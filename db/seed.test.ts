import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { ModifierGroup } from "../server/domain/catalog-types";
import type { DatabaseHandle } from "./client";
import { openPglite, migrate } from "./open";
import { categories, discounts, locations, menus, merchants, products } from "./schema";
import { seedDemoData } from "./seed";
import { demoCatalog } from "./seed-data";

const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

const tables = { merchants, locations, menus, categories, products, discounts };

async function rowCounts(handle: DatabaseHandle): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(table);
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

function isRequiredSingleChoice(group: ModifierGroup): boolean {
  return group.minSelections === 1 && group.maxSelections === 1;
}

function isOptionalMultiChoice(group: ModifierGroup): boolean {
  return group.minSelections === 0 && group.maxSelections > 1;
}

describe("seed data", () => {
  it("uses well-formed, unique ids everywhere, including inside modifier groups", () => {
    const ids = [
      ...demoCatalog.merchants.map((row) => row.id),
      ...demoCatalog.locations.map((row) => row.id),
      ...demoCatalog.menus.map((row) => row.id),
      ...demoCatalog.categories.map((row) => row.id),
      ...demoCatalog.products.map((row) => row.id),
      ...demoCatalog.discounts.map((row) => row.id),
      ...demoCatalog.products.flatMap((row) => (row.modifierGroups ?? []).flatMap((group) => [group.id, ...group.options.map((option) => option.id)])),
    ];
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps popularity distinct within each location so popular ordering is deterministic", () => {
    for (const location of demoCatalog.locations) {
      const values = demoCatalog.products.filter((row) => row.locationId === location.id).map((row) => row.popularity);
      expect(new Set(values).size).toBe(values.length);
    }
  });

  it("only offers modifier rules a customer can satisfy", () => {
    for (const product of demoCatalog.products) {
      for (const group of product.modifierGroups ?? []) {
        expect(group.minSelections).toBeLessThanOrEqual(group.maxSelections);
        expect(group.options.filter((option) => option.available).length).toBeGreaterThanOrEqual(group.minSelections);
      }
    }
  });
});

describe("seedDemoData", () => {
  let handle: DatabaseHandle;
  let countsAfterFirstRun: Record<string, number>;

  beforeAll(async () => {
    handle = await openPglite("memory://");
    await migrate(handle);
    await seedDemoData(handle.db);
    countsAfterFirstRun = await rowCounts(handle);
    await seedDemoData(handle.db);
    // An embedded database migrated and seeded twice: the integration projects' hook bound, not the unit
    // project's 10 s, which a busy 2-core CI machine exceeded (CI run of 2026-11-25).
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
  });

  it("is idempotent: a second run leaves the row counts unchanged", async () => {
    expect(countsAfterFirstRun).toEqual({
      merchants: demoCatalog.merchants.length,
      locations: demoCatalog.locations.length,
      menus: demoCatalog.menus.length,
      categories: demoCatalog.categories.length,
      products: demoCatalog.products.length,
      discounts: demoCatalog.discounts.length,
    });
    expect(await rowCounts(handle)).toEqual(countsAfterFirstRun);
  });

  it("creates both demo locations with their currency and time zone", async () => {
    const rows = await handle.db
      .select({ slug: locations.slug, currency: locations.currency, timeZone: locations.timeZone })
      .from(locations)
      .orderBy(locations.slug);
    expect(rows).toEqual([
      { slug: "dune-grill-marina", currency: "aed", timeZone: "Asia/Dubai" },
      { slug: "harbor-kitchen-downtown", currency: "usd", timeZone: "America/New_York" },
    ]);
  });

  it("gives each location a full menu with exactly one sold-out product", async () => {
    const rows = await handle.db
      .select({
        slug: locations.slug,
        products: sql<number>`count(${products.id})::int`,
        categories: sql<number>`count(distinct ${products.categoryId})::int`,
        menus: sql<number>`count(distinct ${categories.menuId})::int`,
        unavailable: sql<number>`count(*) filter (where not ${products.available})::int`,
      })
      .from(products)
      .innerJoin(locations, eq(products.locationId, locations.id))
      .innerJoin(categories, eq(products.categoryId, categories.id))
      .groupBy(locations.slug);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.products, row.slug).toBeGreaterThanOrEqual(12);
      expect(row.categories, row.slug).toBeGreaterThanOrEqual(3);
      expect(row.menus, row.slug).toBeGreaterThanOrEqual(2);
      expect(row.unavailable, row.slug).toBe(1);
    }
  });

  it("stores modifier groups covering required single choice, optional multi choice and an unavailable option", async () => {
    const groups = (await handle.db.select({ groups: products.modifierGroups }).from(products)).flatMap((row) => row.groups);
    expect(groups.some(isRequiredSingleChoice)).toBe(true);
    expect(groups.some((group) => isOptionalMultiChoice(group) && group.maxPerOption > 1)).toBe(true);
    expect(groups.some((group) => group.options.some((option) => !option.available))).toBe(true);
  });

  it("creates the WELCOME10 discount at Harbor Kitchen", async () => {
    const rows = await handle.db
      .select({ rate: discounts.rate, amountMinor: discounts.amountMinor, active: discounts.active })
      .from(discounts)
      .innerJoin(locations, eq(discounts.locationId, locations.id))
      .where(sql`${locations.slug} = 'harbor-kitchen-downtown' and ${discounts.code} = 'WELCOME10'`);
    expect(rows).toEqual([{ rate: "0.10", amountMinor: null, active: true }]);
  });

  const revisionsOf = async (locationId: string) => {
    const [row] = await handle.db
      .select({ catalogRevision: locations.catalogRevision, policyRevision: locations.policyRevision })
      .from(locations)
      .where(eq(locations.id, locationId));
    return row;
  };

  it("writes nothing and bumps nothing when it finds the seeded values in place", async () => {
    const before = await revisionsOf("loc_harbor_kitchen_downtown");
    const versions = () => handle.db.select({ id: products.id, xmin: sql<string>`xmin::text` }).from(products).orderBy(products.id);
    const rowsBefore = await versions();
    await seedDemoData(handle.db);
    expect(await versions()).toEqual(rowsBefore);
    expect(await revisionsOf("loc_harbor_kitchen_downtown")).toEqual(before);
  });

  it("restores an edited catalog value and bumps that location's catalog revision, as a publication would", async () => {
    const before = await revisionsOf("loc_harbor_kitchen_downtown");
    const other = await revisionsOf("loc_dune_grill_marina");
    await handle.db.update(products).set({ name: "Renamed", priceMinor: 1 }).where(eq(products.id, "prd_hk_smash_burger"));

    await seedDemoData(handle.db);

    const [product] = await handle.db
      .select({ name: products.name, priceMinor: products.priceMinor })
      .from(products)
      .where(eq(products.id, "prd_hk_smash_burger"));
    expect(product).toEqual({ name: "Double Smash Burger", priceMinor: 1450 });
    // Instances cache products by this revision: under the old one, one would price 1 and another 1450.
    expect(await revisionsOf("loc_harbor_kitchen_downtown")).toEqual({ catalogRevision: (before?.catalogRevision ?? 0) + 1, policyRevision: before?.policyRevision });
    expect(await revisionsOf("loc_dune_grill_marina")).toEqual(other);
  });

  it("restores an edited location policy and bumps its policy revision", async () => {
    const before = await revisionsOf("loc_harbor_kitchen_downtown");
    await handle.db.update(locations).set({ fees: sql`${locations.fees} || '{"serviceFeeRate": "0.50"}'::jsonb` }).where(eq(locations.id, "loc_harbor_kitchen_downtown"));

    await seedDemoData(handle.db);

    expect(await revisionsOf("loc_harbor_kitchen_downtown")).toEqual({ catalogRevision: before?.catalogRevision, policyRevision: (before?.policyRevision ?? 0) + 1 });
    const [location] = await handle.db.select({ fees: locations.fees }).from(locations).where(eq(locations.id, "loc_harbor_kitchen_downtown"));
    expect(location?.fees).toEqual(demoCatalog.locations.find((row) => row.id === "loc_harbor_kitchen_downtown")?.fees);
  });
});
