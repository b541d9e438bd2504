import type { CartLine, PricedLine } from "../domain/cart-types";
import type { Currency } from "../domain/money";
import type { CartView } from "../schemas/cart";
import { ByEndLines, changedRange, ListText } from "./list-text";

/** A line's item of the answer, with its JSON text. */
export type RenderedItem = { item: CartView["items"][number]; text: string };

/**
 * The items of one lines array as the answer lists them, and their JSON, with a copy of the lines
 * and of the amounts they were rendered with (unit price, total, discount: three per line).
 */
type KeptItems = {
  lines: readonly CartLine[];
  amounts: readonly number[];
  currency: Currency;
  items: readonly RenderedItem["item"][];
  list: ListText;
};

const kept = new ByEndLines<KeptItems>();

/**
 * The answer's items for `lines`, each rendered by `render` (which keeps a line's rendering with the
 * line object), and the JSON of the list. Made from the items of the array this one was changed from
 * when there is one: the lines both share at the start and at the end, at the same amounts, keep
 * their items and their place in the list's text, and only the lines between are rendered and spliced
 * in. So a change of one line of a 100-line cart neither looks up every line's rendering nor gathers
 * 100 texts from over the heap to join them (list-text.ts).
 */
export function cartItems(
  lines: readonly CartLine[],
  pricedLines: readonly (PricedLine | undefined)[],
  currency: Currency,
  render: (line: CartLine, unitPriceMinor: number, totalMinor: number, discountMinor: number) => RenderedItem,
): { items: RenderedItem["item"][]; text: string } {
  const amounts: number[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const priced = pricedLines[index];
    amounts.push(priced?.unitPriceMinor ?? 0, priced?.totalMinor ?? 0, priced?.discountMinor ?? 0);
  }
  const renderAt = (index: number) => {
    const line = lines[index];
    if (line === undefined) throw new Error(`no line at ${index}`);
    return render(line, amounts[3 * index] ?? 0, amounts[3 * index + 1] ?? 0, amounts[3 * index + 2] ?? 0);
  };
  const basis = kept.get(lines);
  const made = (basis?.currency === currency ? changedFrom(basis, lines, amounts, renderAt) : undefined) ?? madeAnew(lines, amounts, currency, renderAt);
  kept.set(made, basis);
  return { items: [...made.items], text: made.list.text };
}

/**
 * The length of the answer's items' JSON last made for exactly these lines (same objects, same count),
 * if it is still kept: a measure of how much the lines hold, for kept-cart-lines.ts. One lookup, no pass over the lines.
 */
export function renderedItemsLength(lines: readonly CartLine[]): number | undefined {
  const made = kept.get(lines);
  if (made === undefined || made.lines.length !== lines.length) return undefined;
  return made.lines[0] === lines[0] && made.lines[lines.length - 1] === lines[lines.length - 1] ? made.list.text.length : undefined;
}

function madeAnew(lines: readonly CartLine[], amounts: readonly number[], currency: Currency, renderAt: (index: number) => RenderedItem): KeptItems {
  const rendered = lines.map((_, index) => renderAt(index));
  return { lines: [...lines], amounts, currency, items: rendered.map(({ item }) => item), list: ListText.of(rendered.map(({ text }) => text)) };
}

/**
 * The items of `lines` from those of an earlier array in the same currency: the runs both share at
 * the start and at the end (same line object, same amounts) keep their items; the lines between are
 * rendered and spliced in.
 */
function changedFrom(basis: KeptItems, lines: readonly CartLine[], amounts: readonly number[], renderAt: (index: number) => RenderedItem): KeptItems {
  const changed = changedRange(basis.lines.length, lines.length, (index, indexBefore) => lines[index] === basis.lines[indexBefore] && sameAmounts(amounts, index, basis.amounts, indexBefore));
  if (!changed) return basis;
  const { start, endBefore, end } = changed;
  const rendered: RenderedItem[] = [];
  for (let index = start; index < end; index += 1) rendered.push(renderAt(index));
  return {
    lines: [...lines],
    amounts,
    currency: basis.currency,
    items: [...basis.items.slice(0, start), ...rendered.map(({ item }) => item), ...basis.items.slice(endBefore)],
    list: basis.list.splice(
      start,
      endBefore - start,
      rendered.map(({ text }) => text),
    ),
  };
}

function sameAmounts(amounts: readonly number[], index: number, amountsBefore: readonly number[], indexBefore: number): boolean {
  return (
    amounts[3 * index] === amountsBefore[3 * indexBefore] &&
    amounts[3 * index + 1] === amountsBefore[3 * indexBefore + 1] &&
    amounts[3 * index + 2] === amountsBefore[3 * indexBefore + 2]
  );
}
