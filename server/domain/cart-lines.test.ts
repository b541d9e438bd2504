import { describe, expect, it } from "vitest";
import type { CartLine, LineSelection } from "./cart-types";
import type { ModifierGroup } from "./catalog-types";
import { resolveSelections, sameConfiguration, type LineBuild, type ProductFacts, type SelectionInput } from "./cart-lines";

const size: ModifierGroup = {
  id: "grp-size",
  name: "Size",
  minSelections: 1,
  maxSelections: 1,
  maxPerOption: 1,
  options: [
    { id: "opt-small", name: "Small", priceMinor: 0, available: true },
    { id: "opt-large", name: "Large", priceMinor: 150, available: true },
    { id: "opt-huge", name: "Huge", priceMinor: 300, available: false },
  ],
};

const toppings: ModifierGroup = {
  id: "grp-toppings",
  name: "Toppings",
  minSelections: 0,
  maxSelections: 3,
  maxPerOption: 2,
  options: [
    { id: "opt-cheese", name: "Cheese", priceMinor: 75, available: true },
    { id: "opt-bacon", name: "Bacon", priceMinor: 120, available: true },
    { id: "opt-onion", name: "Onion", priceMinor: 40, available: true },
  ],
};

const burger: ProductFacts = {
  id: "prod-burger",
  name: "Burger",
  description: "A burger",
  imageUrl: "https://example.test/burger.png",
  categoryId: "cat-mains",
  priceMinor: 1099,
  available: true,
  modifierGroups: [size, toppings],
};

function failure(result: LineBuild): { message: string; path: string | undefined; count: number } {
  if (result.ok) throw new Error("expected a failure");
  return { message: result.message, path: result.fields[0]?.path, count: result.fields.length };
}

describe("resolveSelections", () => {
  it("accepts a valid required single choice and prices it from the catalog", () => {
    const result = resolveSelections(burger, [{ modifierGroupId: "grp-size", optionId: "opt-large" }]);
    expect(result).toEqual({
      ok: true,
      selections: [
        { modifierGroupId: "grp-size", modifierGroupName: "Size", optionId: "opt-large", optionName: "Large", quantity: 1, priceMinor: 150 },
      ],
    });
  });

  it("accepts quantities up to maxPerOption and up to maxSelections, in request order", () => {
    const result = resolveSelections(burger, [
      { modifierGroupId: "grp-toppings", optionId: "opt-cheese", quantity: 2 },
      { modifierGroupId: "grp-size", optionId: "opt-small" },
      { modifierGroupId: "grp-toppings", optionId: "opt-bacon", quantity: 1 },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.selections.map((selection) => [selection.optionId, selection.quantity, selection.priceMinor])).toEqual([
      ["opt-cheese", 2, 75],
      ["opt-small", 1, 0],
      ["opt-bacon", 1, 120],
    ]);
  });

  it("accepts a product without modifier groups and no selections", () => {
    expect(resolveSelections({ ...burger, modifierGroups: [] }, [])).toEqual({ ok: true, selections: [] });
  });

  it("rejects a sold-out product", () => {
    const result = failure(resolveSelections({ ...burger, available: false }, [{ modifierGroupId: "grp-size", optionId: "opt-large" }]));
    expect(result).toEqual({ message: "Burger is sold out", path: "productId", count: 1 });
  });

  it("rejects an unknown group", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-large" },
        { modifierGroupId: "grp-sauce", optionId: "opt-ketchup" },
      ]),
    );
    expect(result.path).toBe("selections.1.modifierGroupId");
    expect(result.message).toContain("grp-sauce");
  });

  it("rejects an option that belongs to another group", () => {
    const result = failure(resolveSelections(burger, [{ modifierGroupId: "grp-size", optionId: "opt-cheese" }]));
    expect(result.path).toBe("selections.0.optionId");
    expect(result.message).toContain("opt-cheese");
  });

  it("rejects an unknown option", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-small" },
        { modifierGroupId: "grp-toppings", optionId: "opt-pineapple" },
      ]),
    );
    expect(result.path).toBe("selections.1.optionId");
  });

  it("rejects an unavailable option", () => {
    const result = failure(resolveSelections(burger, [{ modifierGroupId: "grp-size", optionId: "opt-huge" }]));
    expect(result).toEqual({ message: "Huge is not available", path: "selections.0.optionId", count: 1 });
  });

  it("rejects the same option twice, naming the second occurrence", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-small" },
        { modifierGroupId: "grp-toppings", optionId: "opt-onion" },
        { modifierGroupId: "grp-toppings", optionId: "opt-onion" },
      ]),
    );
    expect(result).toEqual({ message: "Onion is selected twice", path: "selections.2.optionId", count: 1 });
  });

  it("rejects a quantity above maxPerOption", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-small" },
        { modifierGroupId: "grp-toppings", optionId: "opt-bacon", quantity: 3 },
      ]),
    );
    expect(result).toEqual({ message: "At most 2 of Bacon", path: "selections.1.quantity", count: 1 });
  });

  it("rejects too few selections in a required group", () => {
    const result = failure(resolveSelections(burger, [{ modifierGroupId: "grp-toppings", optionId: "opt-bacon" }]));
    expect(result).toEqual({ message: "Size needs exactly 1 selection(s); got 0", path: "selections", count: 1 });
  });

  it("rejects too many selections in a single-choice group", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-small" },
        { modifierGroupId: "grp-size", optionId: "opt-large" },
      ]),
    );
    expect(result).toEqual({ message: "Size needs exactly 1 selection(s); got 2", path: "selections", count: 1 });
  });

  it("counts option quantities towards maxSelections", () => {
    const requested: SelectionInput[] = [
      { modifierGroupId: "grp-size", optionId: "opt-small" },
      { modifierGroupId: "grp-toppings", optionId: "opt-cheese", quantity: 2 },
      { modifierGroupId: "grp-toppings", optionId: "opt-bacon", quantity: 2 },
    ];
    const result = failure(resolveSelections(burger, requested));
    expect(result).toEqual({ message: "Toppings needs 0 to 3 selection(s); got 4", path: "selections", count: 1 });
  });

  it("reports the first failing rule in request order", () => {
    const result = failure(
      resolveSelections(burger, [
        { modifierGroupId: "grp-size", optionId: "opt-huge" },
        { modifierGroupId: "grp-nope", optionId: "opt-small" },
      ]),
    );
    expect(result.path).toBe("selections.0.optionId");
  });
});

describe("sameConfiguration", () => {
  const cheese: LineSelection = {
    modifierGroupId: "grp-toppings",
    modifierGroupName: "Toppings",
    optionId: "opt-cheese",
    optionName: "Cheese",
    quantity: 1,
    priceMinor: 75,
  };
  const bacon: LineSelection = { ...cheese, optionId: "opt-bacon", optionName: "Bacon", priceMinor: 120 };
  const large: LineSelection = { ...cheese, modifierGroupId: "grp-size", modifierGroupName: "Size", optionId: "opt-large", optionName: "Large", priceMinor: 150 };

  const line: CartLine = {
    id: "line-1",
    productId: "prod-burger",
    name: "Burger",
    description: "A burger",
    imageUrl: "",
    categoryId: "cat-mains",
    quantity: 2,
    basePriceMinor: 1099,
    selections: [large, cheese, bacon],
    specialInstructions: "no pickles",
    itemUnavailableAction: "remove_item",
  };

  it("matches the same product, selections and instructions", () => {
    expect(sameConfiguration(line, "prod-burger", [large, cheese, bacon], "no pickles")).toBe(true);
  });

  it("ignores selection order", () => {
    expect(sameConfiguration(line, "prod-burger", [bacon, large, cheese], "no pickles")).toBe(true);
  });

  it("ignores catalog price changes and display names of the same options", () => {
    expect(sameConfiguration(line, "prod-burger", [{ ...large, priceMinor: 999, optionName: "LARGE" }, cheese, bacon], "no pickles")).toBe(true);
  });

  it("does not match a different option quantity", () => {
    expect(sameConfiguration(line, "prod-burger", [large, { ...cheese, quantity: 2 }, bacon], "no pickles")).toBe(false);
  });

  it("does not match different instructions", () => {
    expect(sameConfiguration(line, "prod-burger", [large, cheese, bacon], "extra pickles")).toBe(false);
    expect(sameConfiguration(line, "prod-burger", [large, cheese, bacon], "")).toBe(false);
  });

  it("does not match a missing, extra or different option", () => {
    expect(sameConfiguration(line, "prod-burger", [large, cheese], "no pickles")).toBe(false);
    expect(sameConfiguration(line, "prod-burger", [large, cheese, bacon, { ...cheese, optionId: "opt-onion" }], "no pickles")).toBe(false);
    expect(sameConfiguration(line, "prod-burger", [large, cheese, { ...bacon, optionId: "opt-onion" }], "no pickles")).toBe(false);
  });

  it("does not match the same option id in another group", () => {
    expect(sameConfiguration(line, "prod-burger", [{ ...large, modifierGroupId: "grp-other" }, cheese, bacon], "no pickles")).toBe(false);
  });

  it("does not match another product", () => {
    expect(sameConfiguration(line, "prod-fries", [large, cheese, bacon], "no pickles")).toBe(false);
  });

  it("matches two lines without selections", () => {
    expect(sameConfiguration({ ...line, selections: [] }, "prod-burger", [], "no pickles")).toBe(true);
  });
});
