import { describe, expect, it } from "vitest";
import { isPathId, pathId } from "./common";

describe("isPathId", () => {
  // The route matcher checks with isPathId, every procedure's input with pathId: they must agree.
  const values = ["", "a", "loc_1", "cart:2~x.y-z", "a".repeat(128), "a".repeat(129), "a b", "a/b", "a%2Fb", "é", "\u0000", ".", "..", "x\n"];

  it.each(values)("agrees with the pathId schema on %j", (value) => {
    expect(isPathId(value)).toBe(pathId.safeParse(value).success);
  });

  it("accepts 1-128 URL-safe characters and nothing else", () => {
    expect(values.filter(isPathId)).toEqual(["a", "loc_1", "cart:2~x.y-z", "a".repeat(128), ".", ".."]);
  });
});
