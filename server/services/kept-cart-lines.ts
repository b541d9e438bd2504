import { LRUCache } from "lru-cache";
import type { CartLine, PricedCart } from "../domain/cart-types";

/**
 * The lines (and their priced form) of the carts this process last wrote, kept decoded in memory
 * per cart with the row version they were written as (cart-access.ts `cartRowVersion`: revision,
 * `xmin`, `updated_at`). A cart mutation sends the version it keeps with its read; Postgres then
 * leaves the lines out if the row is still that version, and the mutation takes the kept ones.
 * At 100 lines that spares reading, transferring and parsing about 70 KB of JSON per change. The line
 * rows (cart-lines.ts) change only with their cart's row, so its version names them too.
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
 * A decoded line with its priced form, and what is made of it once (line-texts.ts: its stored text,
 * its quote text, its item of the answer and that item's text), which lives as long as the line does:
 * 3.8 KB of heap measured for a line with two options, 7.1 KB with 500 characters of CJK instructions;
 * and its share of the lists made of its cart's lines for the next change (quote-lines.ts, cart-items.ts:
 * each list's JSON text and arrays), up to ~2 KB more.
 */
const BYTES_PER_LINE = 10_240;
const ENTRY_OVERHEAD_BYTES = 1_024;

export function createKeptCartLines(): KeptCartLines {
  const cache = new LRUCache<string, KeptLines>({
    maxSize: MAX_BYTES,
    sizeCalculation: (kept) => ENTRY_OVERHEAD_BYTES + kept.lines.length * BYTES_PER_LINE,
  });
  return {
    get: (cartId) => cache.get(cartId),
    keep: (cartId, kept) => {
      cache.set(cartId, kept);
    },
  };
}
