import { describe, expect, it } from "vitest";
import { findUnstorableText } from "./text";

describe("findUnstorableText", () => {
  it("accepts ordinary and non-Latin text, emoji and paired surrogates", () => {
    expect(findUnstorableText({ name: "Smash burger 😀", rtl: "\u202Eعربي", nested: [{ note: "𝕳𝖊𝖑𝖑𝖔" }], n: 1, ok: true, none: null })).toBeUndefined();
  });

  it("names the path of a NUL character in a value or a property name", () => {
    expect(findUnstorableText({ selections: [{ optionId: "a\u0000b" }] })).toEqual({ path: "selections[0].optionId", message: "contains a NUL (U+0000) character" });
    expect(findUnstorableText({ ["bad\u0000key"]: 1 })?.path).toBe("bad\u0000key");
  });

  it("refuses unpaired surrogates at either end, but not a pair", () => {
    expect(findUnstorableText({ a: "x\uD800" })?.message).toMatch(/unpaired/);
    expect(findUnstorableText({ a: "\uDC00x" })?.message).toMatch(/unpaired/);
    expect(findUnstorableText({ a: "\uDBFF\uDBFF" })?.message).toMatch(/unpaired/);
    expect(findUnstorableText({ a: "\uD83D\uDE00" })).toBeUndefined();
    expect(findUnstorableText("\u0000")?.path).toBe("(root)");
  });
});
