import { LRUCache } from "lru-cache";
import type { CartLine, PricedCart } from "../domain/cart-types";
import { renderedItemsLength } from "./cart-items";

/**
 * The lines (and their priced form) of the carts this process last wrote, kept decoded in memory
 * per cart with the row version they were written as (cart-access.ts `cartRowVersion`: revision,
 * `xmin`, `updated_at`). A cart mutation sends the version it keeps with its read; Postgres then
 * leaves the lines out if the row is still that version, and the mutation takes the kept ones.
 * At 100 lines that spares reading, transferring and parsing about 70 KB of JSON per change. The line
 * rows (cart-lines.ts) change only with their cart's row, so its version names them too: the service
 * writes both in one statement, and a write of line rows alone moves the cart's row to its next
 * revision (migration 0009, a trigger).
 *
 * Only a row written by this process, at exactly the version kept, is ever completed from here:
 * any other transaction that writes the row (another instance, a job, SQL by hand) moves `xmin`, and
 * the next read reads the columns again. A version is kept only once its write has committed as the
 * last statement of its transaction (idempotency.ts lastWrite), so no later write of the same
 * transaction can share its `xmin`. The kept objects are shared by the requests that take them, and are never
 * changed: a change makes new lines (cart-operations.ts) and a new priced cart (cart-pricing.ts).
 */
export type KeptLines = { version: string; lines: CartLine[]; priced: PricedCart };

export type KeptCartLines = {
  get: (cartId: string) => KeptLines | undefined;
  keep: (cartId: string, kept: KeptLines) => void;
};

/** Bounds memory whatever the carts hold; the least recently changed carts go first. */
const MAX_BYTES = 32 * 1024 * 1024;
/**
 * A kept line's heap, measured (bench of 2026-11-29: 8 carts of 50 lines, the heap freed when the
 * cache is dropped): the decoded line and its priced form, what is made of it once (line-texts.ts:
 * its stored text, its quote text, its item of the answer and that item's text), and its share of the
 * lists made of its cart's lines for the next change (quote-lines.ts, cart-items.ts). It grows with
 * what the line holds, which its item of the answer shows: a line with two options took 5.4 KB for
 * 970 characters of item JSON, with 500 more characters of instructions 7.4 KB (ASCII) and 10.3 KB
 * (CJK, two bytes a character wherever it is copied). Counted as a fixed part plus 10 bytes per
 * character of item JSON, every measured line is covered; a line of 50 options or long texts counts
 * for what it holds, not for an average line.
 */
const BYTES_PER_LINE = 2_048;
const BYTES_PER_ITEM_CHARACTER = 10;
/** When the lines' items were not rendered (not seen in practice: a change renders its answer before it commits). */
const ITEM_CHARACTERS_PER_LINE_UNRENDERED = 1_500;
const ENTRY_OVERHEAD_BYTES = 1_024;

/** What keeping `lines` costs in heap, by the measure above. */
export function keptLinesBytes(lines: readonly CartLine[]): number {
  const itemCharacters = renderedItemsLength(lines) ?? lines.length * ITEM_CHARACTERS_PER_LINE_UNRENDERED;
  return ENTRY_OVERHEAD_BYTES + lines.length * BYTES_PER_LINE + itemCharacters * BYTES_PER_ITEM_CHARACTER;
}

export function createKeptCartLines(): KeptCartLines {
  const cache = new LRUCache<string, KeptLines>({
    maxSize: MAX_BYTES,
    sizeCalculation: (kept) => keptLinesBytes(kept.lines),
  });
  return {
    get: (cartId) => cache.get(cartId),
    keep: (cartId, kept) => {
      cache.set(cartId, kept);
    },
  };
}
