import { describe, expect, it } from "vitest";
import { canAdd, choose, countInGroup, describeRule, groupOfServerIssue, groupProblem, problems, toSelections, type Choices } from "./modifier-selection";
import type { ModifierGroup, Product } from "./types";

const option = (id: string, available = true) => ({ id, name: id, price: "0.00", priceFormatted: "$0.00", available });

const side: ModifierGroup = { id: "mg_side", name: "Side", minSelections: 1, maxSelections: 1, maxPerOption: 1, options: [option("fries"), option("salad"), option("bread", false)] };
const toppings: ModifierGroup = { id: "mg_top", name: "Toppings", minSelections: 0, maxSelections: 3, maxPerOption: 2, options: [option("bacon"), option("cheese"), option("egg")] };
const burger: Product = {
  id: "prd_burger",
  name: "Burger",
  description: "",
  price: "14.50",
  priceFormatted: "$14.50",
  imageUrl: "",
  categoryId: "cat",
  available: true,
  modifierGroups: [side, toppings],
};

describe("modifier selection", () => {
  it("describes the rules the way the customer reads them", () => {
    expect(describeRule(side)).toBe("Required · choose 1");
    expect(describeRule(toppings)).toBe("Optional · choose up to 3");
    expect(describeRule({ ...toppings, minSelections: 2, maxSelections: 4 })).toBe("Required · choose 2 to 4");
  });

  it("reports a missing required choice and clears it once chosen", () => {
    let choices: Choices = {};
    expect(problems(choices, burger)).toEqual([{ groupId: "mg_side", message: "Choose a side." }]);
    choices = choose(choices, side, "fries", 1);
    expect(problems(choices, burger)).toEqual([]);
  });

  it("replaces the pick in a single-choice group", () => {
    const choices = choose(choose({}, side, "fries", 1), side, "salad", 1);
    expect(choices.mg_side).toEqual({ salad: 1 });
  });

  it("caps options at maxPerOption and the group at maxSelections", () => {
    let choices: Choices = {};
    choices = choose(choices, toppings, "bacon", 5);
    expect(choices.mg_top).toEqual({ bacon: 2 });
    expect(canAdd(choices, toppings, "bacon")).toBe(false);
    expect(canAdd(choices, toppings, "cheese")).toBe(true);
    choices = choose(choices, toppings, "cheese", 1);
    expect(countInGroup(choices, "mg_top")).toBe(3);
    expect(canAdd(choices, toppings, "egg")).toBe(false);
    expect(groupProblem(choices, toppings)).toBeNull();
    expect(groupProblem({ mg_top: { bacon: 2, cheese: 2 } }, toppings)).toBe("Choose at most 3 for Toppings.");
  });

  it("never offers an unavailable option", () => {
    expect(canAdd({}, side, "bread")).toBe(false);
  });

  it("builds the request's selections in menu order, with quantity only above one", () => {
    const choices = choose(choose(choose({}, toppings, "egg", 1), side, "fries", 1), toppings, "bacon", 2);
    expect(toSelections(choices, burger)).toEqual([
      { modifierGroupId: "mg_side", optionId: "fries" },
      { modifierGroupId: "mg_top", optionId: "bacon", quantity: 2 },
      { modifierGroupId: "mg_top", optionId: "egg" },
    ]);
  });

  it("maps the server's field paths back to the group they concern", () => {
    const sent = [{ modifierGroupId: "mg_side", optionId: "bread" }];
    expect(groupOfServerIssue({ path: "selections.0.optionId", message: "option is not available" }, sent, burger)).toBe("mg_side");
    expect(groupOfServerIssue({ path: "selections", message: "mg_top: needs 0 to 3, got 4" }, sent, burger)).toBe("mg_top");
    expect(groupOfServerIssue({ path: "quantity", message: "too large" }, sent, burger)).toBeUndefined();
  });
});
