import { LRUCache } from "lru-cache";
import type { CartView } from "../schemas/cart";
import { jsonText, rememberJsonText } from "../../db/json-text";

/**
 * GET cart's renderings, kept in memory per process: the view built from a cart row, reused while
 * building it again would give the same. A read still reads the row and checks the credential
 * against it every time; what a kept rendering saves is parsing the row's JSON, building the view
 * and serialising it (about 0.1 ms of CPU of a GET cart's 0.6-0.7 in-process, bench/README.md).
 *
 * A rendering is used only for a read that finds:
 * - the same row version (cart-access.ts CartForRead): its revision, which every change of the
 *   service moves, its `xmin`, which any rewrite of the row moves (even one behind the service's
 *   back, and a write of its line rows alone, which moves the row: migration 0009), and its `updated_at`;
 * - the same catalog and policy revisions of its location, which is all the read's check compares;
 * - a time before the rendering's `sameBefore` (revalidation.ts withDetectedChanges): the view of
 *   such a row depends on the time only through its idle expiry and its quotes' expiries.
 * So a read answered from here is byte for byte the answer rendering the row again would give
 * (test/integration/rendered-carts.test.ts).
 */
/** `revisions`: the location's, as cart-access.ts LocationRevisions (written out: AppDeps holds this cache, and cart-access.ts reads the request context). */
export type RenderingKey = { cartId: string; version: string; revisions: { catalogRevision: number; policyRevision: number } };

export type RenderedCarts = {
  get: (key: RenderingKey, now: Date) => CartView | undefined;
  /**
   * What a read must find for the cart's kept rendering to answer at `now` (its row version and its location's
   * revisions), if there is one still in time; a read sends it to leave out what it would not need (cart-access.ts).
   * No recency change.
   */
  usableAt: (cartId: string, now: Date) => Omit<RenderingKey, "cartId"> | undefined;
  /** Keeps a view built at `now` that stays the same for reads before `sameBefore`, with its JSON text. */
  keep: (key: RenderingKey, view: CartView, sameBefore: number, now: Date) => void;
};

type Rendering = { version: string; catalogRevision: number; policyRevision: number; sameBefore: number; view: CartView; size: number };

/** Bounds memory whatever the carts hold; least recently read renderings go first. */
const MAX_BYTES = 32 * 1024 * 1024;
/** A view's objects take about twice its JSON text's two bytes per character; the text is kept too. */
const BYTES_PER_TEXT_CHARACTER = 6;
const ENTRY_OVERHEAD_BYTES = 512;

export function createRenderedCarts(): RenderedCarts {
  const cache = new LRUCache<string, Rendering>({ maxSize: MAX_BYTES, sizeCalculation: (rendering) => rendering.size });
  return {
    get({ cartId, version, revisions }, now) {
      const kept = cache.get(cartId);
      if (!kept || kept.version !== version || now.getTime() >= kept.sameBefore) return undefined;
      if (kept.catalogRevision !== revisions.catalogRevision || kept.policyRevision !== revisions.policyRevision) return undefined;
      return kept.view;
    },
    usableAt(cartId, now) {
      const kept = cache.peek(cartId);
      if (!kept || now.getTime() >= kept.sameBefore) return undefined;
      return { version: kept.version, revisions: { catalogRevision: kept.catalogRevision, policyRevision: kept.policyRevision } };
    },
    keep({ cartId, version, revisions }, view, sameBefore, now) {
      if (now.getTime() >= sameBefore) {
        cache.delete(cartId);
        return;
      }
      // Made with the view (cart-view.ts), from its items' kept texts.
      const text = jsonText(view) ?? "null";
      rememberJsonText(view, text);
      const size = text.length * BYTES_PER_TEXT_CHARACTER + cartId.length * 2 + ENTRY_OVERHEAD_BYTES;
      // Larger than a quarter of the budget: not worth evicting everything else for (nor the older version worth keeping).
      if (size > MAX_BYTES / 4) {
        cache.delete(cartId);
        return;
      }
      cache.set(cartId, { version, catalogRevision: revisions.catalogRevision, policyRevision: revisions.policyRevision, sameBefore, view, size });
    },
  };
}
