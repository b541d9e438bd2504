import { LRUCache } from "lru-cache";

/**
 * Anonymous catalog reads served from memory. The REST transport stores exactly what it tells
 * browsers and CDNs they may store (a 200 to a GET without credentials, `Cache-Control: public`),
 * for RESPONSE_CACHE_TTL_MS, which is at most the max-age those responses advertise: a cached read
 * is never staler than what any shared cache downstream may already serve. Within that time a read
 * touches no database at all, whatever the menu's size. Catalog publications through this process
 * clear it; other instances catch up within the TTL.
 */
export type CachedRepresentation = {
  body: string;
  /** The representation's own headers (content type, ETag, Cache-Control), never per-request ones. */
  headers: Record<string, string>;
};

export type ResponseCache = {
  get: (key: string) => CachedRepresentation | undefined;
  set: (key: string, value: CachedRepresentation) => void;
  /** After a catalog publication: every cached read may be stale. */
  clear: () => void;
};

/** Bounds memory whatever clients put in query strings; least recently used entries go first. */
const MAX_BYTES = 32 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 512;

export function createResponseCache(ttlMs: number, now: () => Date): ResponseCache {
  if (ttlMs === 0) return { get: () => undefined, set: () => undefined, clear: () => undefined };
  const cache = new LRUCache<string, CachedRepresentation>({
    ttl: ttlMs,
    maxSize: MAX_BYTES,
    sizeCalculation: (value, key) => value.body.length * 2 + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    // The service's clock, so that tests which move time also age the cache; read on every lookup
    // (lru-cache otherwise reuses one reading for a millisecond of real time).
    perf: { now: () => now().getTime() },
    ttlResolution: 0,
  });
  return {
    get: (key) => cache.get(key),
    set: (key, value) => {
      // Larger than the whole budget: not worth evicting everything else for.
      if (value.body.length * 2 < MAX_BYTES / 4) cache.set(key, value);
    },
    clear: () => cache.clear(),
  };
}

/** `Cache-Control: no-cache` (or `max-age=0`) on a request asks for a fresh answer (RFC 9111, 5.2.1). */
export function requestsRevalidation(headers: Headers): boolean {
  const directives = headers.get("cache-control");
  return directives !== null && /(?:^|,)\s*(?:no-cache|max-age\s*=\s*"?0+"?)\s*(?:,|$)/i.test(directives);
}
