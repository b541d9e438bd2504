import type { CartLine } from "../domain/cart-types";
import { perLine } from "./line-texts";
import { ByEndLines, changedRange, ListText } from "./list-text";

/** A line's part of the quote fingerprint (its canonical text) and that text as a JSON string. */
export type QuoteLine = { text: string; json: string };

/**
 * The quote lines of one lines array: each line's text at the line's position, the same texts
 * sorted, and the JSON of that sorted list, with a copy of the lines and unit prices they were
 * made from (the array itself might be changed after it was priced; a copy cannot).
 */
type QuoteLines = {
  lines: readonly CartLine[];
  unitPrices: readonly number[];
  byPosition: readonly QuoteLine[];
  sorted: readonly QuoteLine[];
  /** The JSON of the sorted lines' texts. */
  list: ListText;
};

const kept = new ByEndLines<QuoteLines>();
/** Past this many lines removed or added, sorting the whole list again costs no more than placing each. */
const MAX_CHANGED = 8;

/**
 * The JSON of the lines' quote texts in sorted order (UTF-16 code units, as `Array.prototype.sort`
 * and `<` compare), `unitPrices[i]` being the unit price line i is charged at: exactly
 * `JSON.stringify(lines.map(text).sort())`. Made from the quote lines of the array this one was
 * changed from when there is one: the lines both share keep their place in the sorted list, and only
 * the lines removed and added are placed, so a change of one line of a 100-line cart neither looks up
 * every line's text nor sorts the list again.
 */
export function quoteLinesText(lines: readonly CartLine[], unitPrices: readonly number[]): string {
  if (lines.length === 0) return "[]";
  const basis = kept.get(lines);
  const made = (basis && changedFrom(basis, lines, unitPrices)) ?? madeAnew(lines, unitPrices);
  kept.set(made, basis);
  return made.list.text;
}

function madeAnew(lines: readonly CartLine[], unitPrices: readonly number[]): QuoteLines {
  const byPosition = lines.map((line, index) => quoteLine(line, unitPrices[index] ?? 0));
  const sorted = [...byPosition].sort((a, b) => compareTexts(a.text, b.text));
  return { lines: [...lines], unitPrices: [...unitPrices], byPosition, sorted, list: ListText.of(sorted.map((line) => line.json)) };
}

/**
 * The quote lines of `lines` from those of an earlier array: the run both share at the start and
 * the run they share at the end (same line object, same unit price) stay; the lines between are
 * taken out of the sorted list and the new ones placed in it. Undefined when too much changed.
 */
function changedFrom(basis: QuoteLines, lines: readonly CartLine[], unitPrices: readonly number[]): QuoteLines | undefined {
  const changed = changedRange(basis.lines.length, lines.length, (index, indexBefore) => lines[index] === basis.lines[indexBefore] && unitPrices[index] === basis.unitPrices[indexBefore]);
  if (!changed) return basis;
  const { start, endBefore, end } = changed;
  if (end - start > MAX_CHANGED || endBefore - start > MAX_CHANGED) return undefined;
  const sorted = [...basis.sorted];
  let list = basis.list;
  for (let index = start; index < endBefore; index += 1) {
    const removed = basis.byPosition[index];
    if (removed === undefined) return undefined;
    const at = lowerBound(sorted, removed.text);
    // Lines of equal text are interchangeable here: any one of them goes.
    if (sorted[at]?.text !== removed.text) return undefined;
    sorted.splice(at, 1);
    list = list.splice(at, 1, []);
  }
  const added: QuoteLine[] = [];
  for (let index = start; index < end; index += 1) {
    const line = lines[index];
    if (line === undefined) return undefined;
    const entry = quoteLine(line, unitPrices[index] ?? 0);
    const at = lowerBound(sorted, entry.text);
    added.push(entry);
    sorted.splice(at, 0, entry);
    list = list.splice(at, 0, [entry.json]);
  }
  const byPosition = [...basis.byPosition.slice(0, start), ...added, ...basis.byPosition.slice(endBefore)];
  return { lines: [...lines], unitPrices: [...unitPrices], byPosition, sorted, list };
}

/** The first index whose text is not below `text`. */
function lowerBound(sorted: readonly QuoteLine[], text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle]?.text ?? "") < text) low = middle + 1;
    else high = middle;
  }
  return low;
}

function compareTexts(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A line's quote text, made again only when the line or its unit price changes. */
function quoteLine(line: CartLine, unitPriceMinor: number): QuoteLine {
  return quotedLine(line, String(unitPriceMinor), () => {
    const text = JSON.stringify({
      productId: line.productId,
      quantity: line.quantity,
      unitPriceMinor,
      selections: line.selections.map((s) => `${s.modifierGroupId}/${s.optionId}x${s.quantity}@${s.priceMinor}`).sort(),
    });
    return { text, json: JSON.stringify(text) };
  });
}

const quotedLine = perLine<QuoteLine>();
