import type { CartLine, PricedCart, PricedLine } from "./cart-types";

/**
 * The priced form of each of `lines`, at the line's own index (undefined for a line the priced cart
 * does not price). A priced cart lists its lines in the cart's order (priceCart maps them in order;
 * a stored cart reads both from the same rows), so this is one pass comparing ids; only a priced cart
 * in another order costs a lookup by id, and the answer is the same either way.
 */
export function pricedLinesInOrder(lines: readonly CartLine[], priced: PricedCart): readonly (PricedLine | undefined)[] {
  if (priced.lines.length === lines.length && lines.every((line, index) => priced.lines[index]?.lineId === line.id)) return priced.lines;
  const byId = new Map(priced.lines.map((line) => [line.lineId, line]));
  return lines.map((line) => byId.get(line.id));
}
