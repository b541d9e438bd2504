import type { CartLine } from "../domain/cart-types";

/**
 * What is made of a cart line over and over, made once per line object. A change makes new objects
 * for the lines it changes and keeps the others (cart-operations.ts), and the lines of the carts
 * this process wrote outlive the request (kept-cart-lines.ts): so a change of one line of a 100-line
 * cart serialises, fingerprints and renders one line, not 100. Each text is exactly what it replaces
 * would give, so stored rows, fingerprints and answers are byte for byte the same
 * (test/integration/kept-cart-lines-reuse.test.ts).
 */
/** A line's row text as `cart_lines.line` stores it (JSON.stringify's text), made once per line object (cart-lines.ts). */
export function storedLineText(line: CartLine): string {
  // A line's stored text depends on the line alone.
  return storedText(line, "", () => JSON.stringify(line));
}

/** A per-line rendering kept with the line object while the values it depends on (`key`) stay the same. */
export function perLine<T>(): (line: CartLine, key: string, make: () => T) => T {
  const kept = new WeakMap<CartLine, { key: string; value: T }>();
  return (line, key, make) => {
    const found = kept.get(line);
    if (found?.key === key) return found.value;
    const value = make();
    kept.set(line, { key, value });
    return value;
  };
}

/** Each line's stored text (storedLineText). */
const storedText = perLine<string>();
