import type { ModifierGroup } from "./catalog-types";
import type { CartLine, LineSelection } from "./cart-types";
import { type FieldIssue } from "../errors";

export type ProductFacts = {
  id: string;
  name: string;
  description: string;
  imageUrl: string;
  categoryId: string;
  priceMinor: number;
  available: boolean;
  modifierGroups: ModifierGroup[];
};

export type SelectionInput = { modifierGroupId: string; optionId: string; quantity?: number | undefined };

export type LineBuild = { ok: true; selections: LineSelection[] } | { ok: false; message: string; fields: FieldIssue[] };

/**
 * Checks requested modifier selections against the product's groups and prices them from the
 * catalog. Every rule failure names the offending field, so a client can show it next to the input.
 */
export function resolveSelections(product: ProductFacts, requested: readonly SelectionInput[]): LineBuild {
  if (!product.available) {
    return fail(`${product.name} is sold out`, "productId", "product is not available");
  }
  const seen = new Set<string>();
  const selections: LineSelection[] = [];
  for (const [index, input] of requested.entries()) {
    const at = `selections.${index}`;
    const group = product.modifierGroups.find((candidate) => candidate.id === input.modifierGroupId);
    if (!group) return fail(`Modifier group ${input.modifierGroupId} does not belong to ${product.name}`, `${at}.modifierGroupId`, "unknown modifier group for this product");
    const option = group.options.find((candidate) => candidate.id === input.optionId);
    if (!option) return fail(`Option ${input.optionId} is not part of ${group.name}`, `${at}.optionId`, "unknown option for this group");
    if (!option.available) return fail(`${option.name} is not available`, `${at}.optionId`, "option is not available");
    const key = `${group.id}/${option.id}`;
    if (seen.has(key)) return fail(`${option.name} is selected twice`, `${at}.optionId`, "duplicate selection");
    seen.add(key);
    const quantity = input.quantity ?? 1;
    if (quantity > group.maxPerOption) {
      return fail(`At most ${group.maxPerOption} of ${option.name}`, `${at}.quantity`, `must be at most ${group.maxPerOption}`);
    }
    selections.push({
      modifierGroupId: group.id,
      modifierGroupName: group.name,
      optionId: option.id,
      optionName: option.name,
      quantity,
      priceMinor: option.priceMinor,
    });
  }
  for (const group of product.modifierGroups) {
    const count = selections.filter((selection) => selection.modifierGroupId === group.id).reduce((sum, selection) => sum + selection.quantity, 0);
    if (count < group.minSelections || count > group.maxSelections) {
      const range = group.minSelections === group.maxSelections ? `exactly ${group.minSelections}` : `${group.minSelections} to ${group.maxSelections}`;
      return fail(`${group.name} needs ${range} selection(s); got ${count}`, "selections", `${group.id}: needs ${range}, got ${count}`);
    }
  }
  return { ok: true, selections };
}

/** Two requests for the same product, options and instructions become one line. */
export function sameConfiguration(line: CartLine, productId: string, selections: readonly LineSelection[], instructions: string): boolean {
  if (line.productId !== productId || line.specialInstructions !== instructions) return false;
  const key = (items: readonly { modifierGroupId: string; optionId: string; quantity: number }[]) =>
    items
      .map((item) => `${item.modifierGroupId}/${item.optionId}x${item.quantity}`)
      .sort()
      .join("|");
  return key(line.selections) === key(selections);
}

function fail(message: string, path: string, detail: string): LineBuild {
  return { ok: false, message, fields: [{ path, message: detail }] };
}
