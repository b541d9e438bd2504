import type { CartLine } from "../domain/cart-types";
import { perLine } from "./line-texts";

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
  /** The length of each sorted line's JSON, in the same order: where each one starts in `text`. */
  jsonLengths: readonly number[];
  text: string;
};

/**
 * The last quote lines made for an array, found by its first and its last line object. A change of
 * a cart makes a new array that keeps every line object it does not change (cart-operations.ts), so
 * one of the two ends almost always leads to the quote lines of the array it was made from.
 */
const byEndLine = new WeakMap<CartLine, QuoteLines>();
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
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (first === undefined || last === undefined) return "[]";
  const basis = byEndLine.get(first) ?? byEndLine.get(last);
  const made = (basis && changedFrom(basis, lines, unitPrices)) ?? madeAnew(lines, unitPrices);
  byEndLine.set(first, made);
  byEndLine.set(last, made);
  return made.text;
}

function madeAnew(lines: readonly CartLine[], unitPrices: readonly number[]): QuoteLines {
  const byPosition = lines.map((line, index) => quoteLine(line, unitPrices[index] ?? 0));
  const sorted = [...byPosition].sort((a, b) => compareTexts(a.text, b.text));
  return { lines: [...lines], unitPrices: [...unitPrices], byPosition, sorted, jsonLengths: sorted.map((line) => line.json.length), text: listText(sorted) };
}

/**
 * The quote lines of `lines` from those of an earlier array: the run both share at the start and
 * the run they share at the end (same line object, same unit price) stay; the lines between are
 * taken out of the sorted list and the new ones placed in it. Undefined when too much changed.
 */
function changedFrom(basis: QuoteLines, lines: readonly CartLine[], unitPrices: readonly number[]): QuoteLines | undefined {
  const before = basis.lines;
  const pricesBefore = basis.unitPrices;
  const kept = (index: number, indexBefore: number) => lines[index] === before[indexBefore] && unitPrices[index] === pricesBefore[indexBefore];
  let start = 0;
  while (start < lines.length && start < before.length && kept(start, start)) start += 1;
  let end = lines.length;
  let endBefore = before.length;
  while (end > start && endBefore > start && kept(end - 1, endBefore - 1)) {
    end -= 1;
    endBefore -= 1;
  }
  if (start === lines.length && start === before.length) return basis;
  if (end - start > MAX_CHANGED || endBefore - start > MAX_CHANGED) return undefined;
  const list = new SortedListText(basis);
  for (let index = start; index < endBefore; index += 1) {
    const removed = basis.byPosition[index];
    if (removed === undefined || !list.remove(removed)) return undefined;
  }
  const added: QuoteLine[] = [];
  for (let index = start; index < end; index += 1) {
    const line = lines[index];
    if (line === undefined) return undefined;
    const entry = quoteLine(line, unitPrices[index] ?? 0);
    added.push(entry);
    list.insert(entry);
  }
  const byPosition = [...basis.byPosition.slice(0, start), ...added, ...basis.byPosition.slice(endBefore)];
  return { lines: [...lines], unitPrices: [...unitPrices], byPosition, sorted: list.sorted, jsonLengths: list.jsonLengths, text: list.text };
}

/**
 * A sorted list's JSON changed by cutting a line's JSON out of the text, or splicing one in, where
 * it goes. The text is one string, read in one sweep; joining the lines' JSON again would read 100
 * strings and objects scattered over the heap, which in a running server cost more than the join
 * itself (~80 us against 8 us for the same join repeated at once, at 100 lines).
 */
class SortedListText {
  readonly sorted: QuoteLine[];
  readonly jsonLengths: number[];
  text: string;

  constructor(basis: Pick<QuoteLines, "sorted" | "jsonLengths" | "text">) {
    this.sorted = [...basis.sorted];
    this.jsonLengths = [...basis.jsonLengths];
    this.text = basis.text;
  }

  /** Takes out one line of this text (any one, if several have it); false when none has it. */
  remove(line: QuoteLine): boolean {
    const at = lowerBound(this.sorted, line.text);
    if (this.sorted[at]?.text !== line.text) return false;
    const start = this.offsetOf(at);
    const length = this.jsonLengths[at] ?? 0;
    const count = this.sorted.length;
    // The comma that goes with it: the one after, or for the last of several lines, the one before.
    if (count === 1) this.text = "[]";
    else if (at < count - 1) this.text = this.text.slice(0, start) + this.text.slice(start + length + 1);
    else this.text = this.text.slice(0, start - 1) + this.text.slice(start + length);
    this.sorted.splice(at, 1);
    this.jsonLengths.splice(at, 1);
    return true;
  }

  insert(line: QuoteLine): void {
    const at = lowerBound(this.sorted, line.text);
    const count = this.sorted.length;
    if (count === 0) this.text = `[${line.json}]`;
    else if (at < count) {
      const start = this.offsetOf(at);
      this.text = `${this.text.slice(0, start)}${line.json},${this.text.slice(start)}`;
    } else this.text = `${this.text.slice(0, -1)},${line.json}]`;
    this.sorted.splice(at, 0, line);
    this.jsonLengths.splice(at, 0, line.json.length);
  }

  /** Where the JSON of the line at `index` starts in the text: after "[" and every earlier line and its comma. */
  private offsetOf(index: number): number {
    let offset = 1;
    for (let before = 0; before < index; before += 1) offset += (this.jsonLengths[before] ?? 0) + 1;
    return offset;
  }
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

/** The JSON of a list of strings, from each string's JSON made once with its line. */
function listText(sorted: readonly QuoteLine[]): string {
  return `[${sorted.map((line) => line.json).join(",")}]`;
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
