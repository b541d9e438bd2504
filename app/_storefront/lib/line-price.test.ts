import { describe, expect, it } from "vitest";
import { decimalToMinor } from "./format";
import { linePriceMinor } from "./modifier-selection";
import type { Product } from "./types";

const option = (id: string, price: string) => ({ id, name: id, price, priceFormatted: `$${price}`, available: true });
const product = {
  id: "prd_chowder",
  price: "8.95",
  modifierGroups: [
    { id: "size", options: [option("cup", "0.00"), option("bowl", "3.00")] },
    { id: "extras", options: [option("bacon", "1.25"), option("crackers", "0.10")] },
  ],
} as unknown as Product;

describe("the live line price in the product dialog", () => {
  it("adds each chosen option as often as it is chosen, times the quantity, in minor units", () => {
    expect(linePriceMinor(product, {}, 1)).toBe(895);
    expect(linePriceMinor(product, { size: { bowl: 1 } }, 1)).toBe(1195);
    expect(linePriceMinor(product, { size: { bowl: 1 }, extras: { bacon: 2, crackers: 1 } }, 3)).toBe(3 * (895 + 300 + 250 + 10));
  });

  it("parses decimal strings without floats", () => {
    expect(decimalToMinor("0.1")).toBe(10);
    expect(decimalToMinor("1234567.89")).toBe(123456789);
    expect(decimalToMinor("-2.05")).toBe(-205);
    expect(() => decimalToMinor("1.234")).toThrow();
  });
});

describe("a preset tip's amount on its button", () => {
  it("is the rate of the subtotal rounded half up, as the service prices it", async () => {
    const { rateOfMinor } = await import("./format");
    expect(rateOfMinor(1450, "0.18")).toBe(261);
    expect(rateOfMinor(1450, "0.15")).toBe(218); // 217.5 rounds up
    expect(rateOfMinor(0, "0.2")).toBe(0);
  });
});
