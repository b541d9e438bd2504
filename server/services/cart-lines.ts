import { fragment, rawFragment, type Fragment } from "../../db/fragment";
import type { CartWithLines, carts, StoredPricedCart } from "../../db/schema";
import type { CartLine, PricedCart, PricedLine } from "../domain/cart-types";
import { storedLineText } from "./line-texts";
import { pricedLinesInOrder } from "../domain/priced-lines";
import { changedRange } from "./list-text";

/**
 * A cart's lines as rows (db/schema/carts.ts cartLines): how a read gets them back, and what a change
 * writes of them. A change writes the lines it changed, added or removed, not the cart's whole list:
 * at 100 lines, one row instead of about 70 KB of JSON rewritten and compressed by Postgres.
 */

/**
 * SQL of one column: the lines of the cart `alias` with their priced forms, in order, as one JSON array
 * of `[line, priced]` pairs (`readLines` takes it apart). A scalar subquery, so a statement that asks for
 * it only in some cases (the kept-lines CASE of cart-access.ts) reads the rows only in those.
 */
export const linesOfCart = (alias: string): string =>
  `(select coalesce(json_agg(json_build_array(cl."line", cl."priced") order by cl."seq"), '[]'::json) from cart_lines cl where cl."cart_id" = ${alias}."id")`;

type LinesAndPriced = { lines: CartLine[]; priced: PricedCart };

/** `linesOfCart`'s column, as the driver gives it (parsed) or as its text (a GET's read: cart-access.ts). */
export const linesColumn = {
  decode: (value: unknown): [CartLine, PricedLine][] => (typeof value === "string" ? JSON.parse(value) : value) as [CartLine, PricedLine][],
};

/** The lines and the priced cart from `linesOfCart`'s value and the cart row's totals. */
export function readLines(value: unknown, totals: StoredPricedCart): LinesAndPriced {
  const pairs = linesColumn.decode(value);
  const lines: CartLine[] = [];
  const pricedLines: PricedLine[] = [];
  for (const [line, priced] of pairs) {
    lines.push(line);
    pricedLines.push(priced);
  }
  return { lines, priced: { lines: pricedLines, ...totals } };
}

/** The cart with its lines: its row (as `projection` reads it) and `linesOfCart`'s value. */
export function withLines(row: typeof carts.$inferSelect, value: unknown): CartWithLines {
  return { ...row, ...readLines(value, row.priced) };
}

/** The priced cart as the cart row stores it: its totals, without the priced lines (they go with the lines). */
export function storedPriced(priced: PricedCart): StoredPricedCart {
  const { lines: _pricedLines, ...totals } = priced;
  return totals;
}

const samePriced = (a: PricedLine | undefined, b: PricedLine): boolean =>
  a !== undefined && a.unitPriceMinor === b.unitPriceMinor && a.totalMinor === b.totalMinor && a.discountMinor === b.discountMinor && a.lineId === b.lineId;

/** One line row as the write's JSON parameter carries it: id, absolute seq (or null), ordinal among new lines, line, priced. */
function rowText(line: CartLine, priced: PricedLine, seq: number | null, ordinal: number | null): string {
  return `{"i":${JSON.stringify(line.id)},"s":${seq === null ? "null" : seq},"o":${ordinal === null ? "null" : ordinal},"l":${storedLineText(line)},"p":${JSON.stringify(priced)}}`;
}

/**
 * Whether `after` keeps the order of `before`: the lines it keeps in their order, then its new ones.
 * Then every kept line keeps its `seq` and the new ones go after the highest; else (no change of the
 * service reorders lines today) every line is written with its position as its `seq`.
 */
function keepsOrder(before: ReadonlyMap<string, number>, after: readonly CartLine[]): boolean {
  let lastKept = -1;
  let sawNew = false;
  for (const line of after) {
    const at = before.get(line.id);
    if (at === undefined) {
      sawNew = true;
      continue;
    }
    if (sawNew || at <= lastKept) return false;
    lastKept = at;
  }
  return true;
}

const rows = (texts: string[]) => `[${texts.join(",")}]`;

/**
 * The statements that bring the cart's line rows from `before` to `after`, each the body of a
 * data-modifying WITH that runs only if the cart's own compare-and-set (`last_write`, idempotency.ts
 * lastWrite) wrote its row: so the lines change exactly when the cart does, in the same statement.
 * A line is written when it is new, or its object or its priced form changed (a change makes new
 * objects for the lines it changes, and keeps the others: cart-operations.ts); removed lines are deleted.
 */
export function lineWrites(cartId: string, before: LinesAndPriced, after: LinesAndPriced): Fragment[] {
  const beforePriced = pricedLinesInOrder(before.lines, before.priced);
  const afterPriced = pricedLinesInOrder(after.lines, after.priced);
  // The runs both lists share at the start and at the end (same line objects, same priced forms) keep
  // their rows, so only the lines between need a look: at 100 lines, one line instead of 100 ids mapped.
  const range = changedRange(before.lines.length, after.lines.length, (index, indexBefore) => {
    const priced = afterPriced[index];
    return after.lines[index] === before.lines[indexBefore] && priced !== undefined && samePriced(beforePriced[indexBefore], priced);
  });
  if (!range) return [];
  const between = writesOf(
    cartId,
    { lines: before.lines.slice(range.start, range.endBefore), priced: beforePriced.slice(range.start, range.endBefore) },
    { lines: after.lines.slice(range.start, range.end), priced: afterPriced.slice(range.start, range.end) },
    { wholeCart: false, linesAfter: after.lines.length - range.end },
  );
  return between ?? wholeCartLineWrites(cartId, before, after);
}

/** lineWrites from every line of both lists, whatever they share. */
export function wholeCartLineWrites(cartId: string, before: LinesAndPriced, after: LinesAndPriced): Fragment[] {
  const whole = (cart: LinesAndPriced) => ({ lines: cart.lines, priced: pricedLinesInOrder(cart.lines, cart.priced) });
  return writesOf(cartId, whole(before), whole(after), { wholeCart: true, linesAfter: 0 }) ?? [];
}

type LinesInOrder = { lines: readonly CartLine[]; priced: readonly (PricedLine | undefined)[] };

/**
 * The writes from `before`'s lines to `after`'s. For a part of the cart (`wholeCart` false, `linesAfter`
 * kept lines after it), undefined when the part does not keep its order, or adds lines before kept ones:
 * both rewrite every line's `seq` by its position in the whole cart.
 */
function writesOf(cartId: string, before: LinesInOrder, after: LinesInOrder, part: { wholeCart: boolean; linesAfter: number }): Fragment[] | undefined {
  const beforeAt = new Map(before.lines.map((line, index) => [line.id, index]));
  const inOrder = keepsOrder(beforeAt, after.lines);
  if (!part.wholeCart && !inOrder) return undefined;
  const changed: string[] = [];
  const added: string[] = [];
  const afterIds = new Set<string>();
  after.lines.forEach((line, position) => {
    afterIds.add(line.id);
    const priced = after.priced[position];
    if (!priced) throw new Error(`cart line ${line.id} has no priced form`);
    const at = beforeAt.get(line.id);
    if (at === undefined) added.push(rowText(line, priced, inOrder ? null : position, added.length));
    else if (!inOrder || before.lines[at] !== line || !samePriced(before.priced[at], priced)) changed.push(rowText(line, priced, inOrder ? null : position, null));
  });
  // New lines take seqs after the cart's highest, so they must be the cart's last.
  if (!part.wholeCart && added.length > 0 && part.linesAfter > 0) return undefined;
  const removed = before.lines.filter((line) => !afterIds.has(line.id)).map((line) => JSON.stringify(line.id));
  const writes: Fragment[] = [];
  if (removed.length > 0) writes.push(fragment`${removeLines}${cartId}${removeLinesIn}${rows(removed)}${closeRemove}`);
  if (changed.length > 0) writes.push(fragment`${updateLines}${rows(changed)}${updateLinesWhere}${cartId}${closeUpdate}`);
  if (added.length > 0) writes.push(fragment`${insertLines}${cartId}${insertLinesSeq}${cartId}${insertLinesFrom}${rows(added)}${closeInsert}`);
  return writes;
}

const onlyIfWritten = "exists (select 1 from last_write)";
const removeLines = rawFragment(`delete from cart_lines where cart_id = `);
const removeLinesIn = rawFragment(` and line_id in (select value from json_array_elements_text(`);
const closeRemove = rawFragment(`::json)) and ${onlyIfWritten}`);
const updateLines = rawFragment(`update cart_lines set line = x.l, priced = x.p, seq = coalesce(x.s, cart_lines.seq) from json_to_recordset(`);
const updateLinesWhere = rawFragment(`::json) as x(i text, s integer, l json, p json) where cart_lines.cart_id = `);
const closeUpdate = rawFragment(` and cart_lines.line_id = x.i and ${onlyIfWritten}`);
const insertLines = rawFragment(`insert into cart_lines (cart_id, line_id, seq, line, priced) select `);
const insertLinesSeq = rawFragment(`, x.i, coalesce(x.s, (select coalesce(max(seq) + 1, 0) from cart_lines where cart_id = `);
const insertLinesFrom = rawFragment(`) + x.o), x.l, x.p from json_to_recordset(`);
const closeInsert = rawFragment(`::json) as x(i text, s integer, o integer, l json, p json) where ${onlyIfWritten}`);
