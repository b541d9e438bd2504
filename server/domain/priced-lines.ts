import type { CartLine, PricedCart, PricedLine } from "./cart-types";

/**
 * The lines array each priced cart that priceCart made was priced from: it lists them in that order by
 * construction, so for that array the check below is skipped. A change prices its lines once and then
 * takes their priced forms in order three times or more (the fingerprint, the line writes, the answer),
 * and at 100 lines each check reads 200 objects that are no longer in the processor's cache.
 */
const pricedFrom = new WeakMap<PricedCart, readonly CartLine[]>();

/** Records that `priced` lists the priced forms of `lines`, in their order (domain/pricing.ts priceCart). */
export function pricedInOrder(priced: PricedCart, lines: readonly CartLine[]): PricedCart {
  pricedFrom.set(priced, lines);
  return priced;
}

/**
 * The priced form of each of `lines`, at the line's own index (undefined for a line the priced cart
 * does not price). A priced cart lists its lines in the cart's order (priceCart maps them in order;
 * a stored cart reads both from the same rows), so this is one pass comparing ids; only a priced cart
 * in another order costs a lookup by id, and the answer is the same either way.
 */
export function pricedLinesInOrder(lines: readonly CartLine[], priced: PricedCart): readonly (PricedLine | undefined)[] {
  if (pricedFrom.get(priced) === lines && priced.lines.length === lines.length) return priced.lines;
  if (priced.lines.length === lines.length && lines.every((line, index) => priced.lines[index]?.lineId === line.id)) return priced.lines;
  const byId = new Map(priced.lines.map((line) => [line.lineId, line]));
  return lines.map((line) => byId.get(line.id));
}
