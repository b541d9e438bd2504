import { decimalToMinor } from "./format";
import type { ModifierGroup, Product, SelectionInput } from "./types";

/**
 * The product dialog's choices: option quantities per modifier group, and the same min/max rules
 * the server enforces (server/domain/cart-lines.ts), checked before sending so the customer sees
 * the problem next to the group. The server remains the authority; its errors are shown too.
 */
export type Choices = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** A group answered by picking exactly one option: radio buttons. */
export function isSingleChoice(group: ModifierGroup): boolean {
  return group.maxSelections === 1 && group.maxPerOption === 1;
}

export function quantityOf(choices: Choices, groupId: string, optionId: string): number {
  return choices[groupId]?.[optionId] ?? 0;
}

export function countInGroup(choices: Choices, groupId: string): number {
  return Object.values(choices[groupId] ?? {}).reduce((sum, quantity) => sum + quantity, 0);
}

/** Sets one option's quantity; in a single-choice group picking an option replaces the previous one. */
export function choose(choices: Choices, group: ModifierGroup, optionId: string, quantity: number): Choices {
  const bounded = Math.max(0, Math.min(quantity, group.maxPerOption));
  const previous = isSingleChoice(group) ? {} : (choices[group.id] ?? {});
  const next: Record<string, number> = { ...previous };
  if (bounded === 0) delete next[optionId];
  else next[optionId] = bounded;
  return { ...choices, [group.id]: next };
}

/** Whether one more of this option fits the group's rules. */
export function canAdd(choices: Choices, group: ModifierGroup, optionId: string): boolean {
  const option = group.options.find((candidate) => candidate.id === optionId);
  if (!option?.available) return false;
  if (isSingleChoice(group)) return true;
  return quantityOf(choices, group.id, optionId) < group.maxPerOption && countInGroup(choices, group.id) < group.maxSelections;
}

/** "Required · choose 1", "Optional · up to 3", "Choose 2 to 4". */
export function describeRule(group: ModifierGroup): string {
  const { minSelections: min, maxSelections: max } = group;
  if (min === 0) return max === 1 ? "Optional · choose up to 1" : `Optional · choose up to ${max}`;
  if (min === max) return `Required · choose ${min}`;
  return `Required · choose ${min} to ${max}`;
}

/** What is wrong with a group's current choices, or null when they satisfy its rules. */
export function groupProblem(choices: Choices, group: ModifierGroup): string | null {
  const count = countInGroup(choices, group.id);
  if (count < group.minSelections) {
    return group.minSelections === 1 ? `Choose a ${group.name.toLowerCase()}.` : `Choose at least ${group.minSelections} for ${group.name}.`;
  }
  if (count > group.maxSelections) return `Choose at most ${group.maxSelections} for ${group.name}.`;
  return null;
}

export function problems(choices: Choices, product: Product): { groupId: string; message: string }[] {
  return product.modifierGroups.flatMap((group) => {
    const message = groupProblem(choices, group);
    return message ? [{ groupId: group.id, message }] : [];
  });
}

/** The add-item request's selections, in the product's group and option order. */
export function toSelections(choices: Choices, product: Product): SelectionInput[] {
  return product.modifierGroups.flatMap((group) =>
    group.options.flatMap((option) => {
      const quantity = quantityOf(choices, group.id, option.id);
      if (quantity === 0) return [];
      return [quantity === 1 ? { modifierGroupId: group.id, optionId: option.id } : { modifierGroupId: group.id, optionId: option.id, quantity }];
    }),
  );
}

/**
 * Which group a server validation issue refers to: "selections.2.optionId" names the third
 * selection sent; a group-level rule failure is reported on "selections" as "<groupId>: ...".
 */
export function groupOfServerIssue(issue: { path: string; message: string }, sent: readonly SelectionInput[], product: Product): string | undefined {
  const match = /^selections\.(\d+)\./.exec(issue.path);
  if (match) return sent[Number(match[1])]?.modifierGroupId;
  if (issue.path === "selections") return product.modifierGroups.find((group) => issue.message.startsWith(`${group.id}:`))?.id;
  return undefined;
}

/** The line's price as chosen so far, in minor units: (base + each chosen option x its count) x quantity. */
export function linePriceMinor(product: Product, choices: Choices, quantity: number): number {
  const options = product.modifierGroups.reduce(
    (sum, group) => sum + group.options.reduce((groupSum, option) => groupSum + decimalToMinor(option.price) * quantityOf(choices, group.id, option.id), 0),
    0,
  );
  return (decimalToMinor(product.price) + options) * quantity;
}
