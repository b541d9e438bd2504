import { describe, expect, it } from "vitest";
import { pointsForOrder } from "./loyalty";

describe("loyalty points", () => {
  it("gives the merchant's points per whole currency unit of the subTotal, rounded down", () => {
    expect(pointsForOrder(1295, "usd", 1)).toBe(12);
    expect(pointsForOrder(1299, "usd", 1)).toBe(12);
    expect(pointsForOrder(4500, "aed", 2)).toBe(90);
    expect(pointsForOrder(99, "gbp", 5)).toBe(0);
  });

  it("gives nothing without a programme or a subtotal", () => {
    expect(pointsForOrder(10_000, "usd", 0)).toBe(0);
    expect(pointsForOrder(0, "usd", 1)).toBe(0);
    expect(pointsForOrder(-500, "usd", 1)).toBe(0);
  });
});
