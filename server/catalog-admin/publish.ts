import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import { locations, menus, products } from "../../db/schema";
import type { FeePolicy, FulfilmentMethod, FulfilmentOption, MenuAvailability, ModifierGroup, WeeklyHours } from "../domain/catalog-types";

/**
 * Publishing catalog and commerce-policy changes, for tests, seeds and operator scripts (the
 * merchant-facing editing API is out of scope). One call is one publication: every change is
 * applied in one transaction together with the revision bump it implies, so a cart either sees
 * the old revision and the old data or the new revision with all of the new data.
 *
 * Catalog changes (products, options, modifier rules, menu schedules) bump
 * locations.catalog_revision; policy changes (fees, tax, opening hours, fulfilment) bump
 * locations.policy_revision. Carts compare those with the revisions they were priced against.
 */
export type CatalogChange =
  | { kind: "productPrice"; productId: string; priceMinor: number }
  | { kind: "productAvailability"; productId: string; available: boolean }
  | { kind: "productMaxQuantity"; productId: string; maxQuantity: number | null }
  | { kind: "productRemoved"; productId: string }
  | { kind: "modifierOptionPrice"; productId: string; groupId: string; optionId: string; priceMinor: number }
  | { kind: "modifierOptionAvailability"; productId: string; groupId: string; optionId: string; available: boolean }
  | { kind: "modifierOptionRemoved"; productId: string; groupId: string; optionId: string }
  | { kind: "modifierGroupRules"; productId: string; groupId: string; rules: Partial<Pick<ModifierGroup, "minSelections" | "maxSelections" | "maxPerOption">> }
  | { kind: "modifierGroupAdded"; productId: string; group: ModifierGroup }
  | { kind: "menuAvailability"; menuId: string; availability: MenuAvailability | null };

export type PolicyChange =
  | { kind: "fees"; fees: Partial<FeePolicy> }
  | { kind: "fulfilment"; method: FulfilmentMethod; option: Partial<FulfilmentOption> }
  | { kind: "openingHours"; openingHours: WeeklyHours };

export type Publication = CatalogChange | PolicyChange;

const policyKinds = new Set<Publication["kind"]>(["fees", "fulfilment", "openingHours"]);

export function isPolicyChange(change: Publication): change is PolicyChange {
  return policyKinds.has(change.kind);
}

export type PublishResult = { catalogRevision: number; policyRevision: number };

export async function publish(db: Db, locationId: string, changes: readonly Publication[]): Promise<PublishResult> {
  if (changes.length === 0) throw new Error("nothing to publish");
  return db.transaction(async (tx) => {
    // The row lock serialises publications of one location, so revisions never skip or repeat.
    const [location] = await tx.select().from(locations).where(eq(locations.id, locationId)).for("update");
    if (!location) throw new Error(`unknown location ${locationId}`);
    let fees = location.fees;
    let fulfilment = location.fulfilment;
    let openingHours = location.openingHours;
    for (const change of changes) {
      switch (change.kind) {
        case "fees":
          fees = { ...fees, ...change.fees };
          break;
        case "fulfilment": {
          const current = fulfilment[change.method];
          if (!current && change.option.enabled !== false) {
            throw new Error(`${change.method} is not configured at ${locationId}; give a full option to add it`);
          }
          fulfilment = { ...fulfilment, [change.method]: { ...current, ...change.option } };
          break;
        }
        case "openingHours":
          openingHours = change.openingHours;
          break;
        default:
          await applyCatalogChange(tx, locationId, change);
      }
    }
    const catalogChanged = changes.some((change) => !isPolicyChange(change));
    const policyChanged = changes.some(isPolicyChange);
    const [updated] = await tx
      .update(locations)
      .set({
        fees,
        fulfilment,
        openingHours,
        catalogRevision: catalogChanged ? sql`${locations.catalogRevision} + 1` : location.catalogRevision,
        policyRevision: policyChanged ? sql`${locations.policyRevision} + 1` : location.policyRevision,
        updatedAt: new Date(),
      })
      .where(eq(locations.id, locationId))
      .returning({ catalogRevision: locations.catalogRevision, policyRevision: locations.policyRevision });
    if (!updated) throw new Error(`location ${locationId} vanished during publication`);
    return updated;
  });
}

async function applyCatalogChange(tx: Tx, locationId: string, change: CatalogChange): Promise<void> {
  if (change.kind === "menuAvailability") {
    const updated = await tx
      .update(menus)
      .set({ availability: change.availability })
      .where(and(eq(menus.id, change.menuId), eq(menus.locationId, locationId)))
      .returning({ id: menus.id });
    if (updated.length === 0) throw new Error(`unknown menu ${change.menuId} at ${locationId}`);
    return;
  }
  const where = and(eq(products.id, change.productId), eq(products.locationId, locationId));
  const [product] = await tx.select().from(products).where(where);
  if (!product) throw new Error(`unknown product ${change.productId} at ${locationId}`);
  switch (change.kind) {
    case "productRemoved":
      await tx.delete(products).where(where);
      return;
    case "productPrice":
      await tx.update(products).set({ priceMinor: requireMinor(change.priceMinor) }).where(where);
      return;
    case "productAvailability":
      await tx.update(products).set({ available: change.available }).where(where);
      return;
    case "productMaxQuantity":
      if (change.maxQuantity !== null && (!Number.isInteger(change.maxQuantity) || change.maxQuantity < 1)) throw new Error("maxQuantity must be a positive integer or null");
      await tx.update(products).set({ maxQuantity: change.maxQuantity }).where(where);
      return;
    default:
      await tx.update(products).set({ modifierGroups: changeGroups(product.modifierGroups, change) }).where(where);
  }
}

type GroupChange = Extract<CatalogChange, { kind: `modifier${string}` }>;

function changeGroups(groups: readonly ModifierGroup[], change: GroupChange): ModifierGroup[] {
  if (change.kind === "modifierGroupAdded") {
    if (groups.some((group) => group.id === change.group.id)) throw new Error(`modifier group ${change.group.id} already exists`);
    return [...groups, checkRules(change.group)];
  }
  if (!groups.some((group) => group.id === change.groupId)) throw new Error(`unknown modifier group ${change.groupId}`);
  return groups.map((group) => {
    if (group.id !== change.groupId) return group;
    if (change.kind === "modifierGroupRules") return checkRules({ ...group, ...change.rules });
    if (!group.options.some((option) => option.id === change.optionId)) throw new Error(`unknown option ${change.optionId}`);
    switch (change.kind) {
      case "modifierOptionRemoved":
        return { ...group, options: group.options.filter((option) => option.id !== change.optionId) };
      case "modifierOptionAvailability":
        return { ...group, options: group.options.map((option) => (option.id === change.optionId ? { ...option, available: change.available } : option)) };
      case "modifierOptionPrice":
        return { ...group, options: group.options.map((option) => (option.id === change.optionId ? { ...option, priceMinor: requireMinor(change.priceMinor) } : option)) };
    }
  });
}

function checkRules(group: ModifierGroup): ModifierGroup {
  if (group.minSelections < 0 || group.maxSelections < group.minSelections || group.maxPerOption < 1) {
    throw new Error(`modifier group ${group.id}: need 0 <= minSelections <= maxSelections and maxPerOption >= 1`);
  }
  return group;
}

function requireMinor(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`not a non-negative minor amount: ${amount}`);
  return amount;
}
