import { describe, expect, it } from "vitest";
import { QUOTED_INPUT_MAX, quoteInput } from "./quote-input";

describe("quoteInput", () => {
  it("quotes input as a JSON string", () => {
    expect(quoteInput("SAVE10")).toBe('"SAVE10"');
    expect(quoteInput('a"b\n')).toBe('"a\\"b\\n"');
  });

  it("cuts long input to QUOTED_INPUT_MAX code points and marks the cut", () => {
    const quoted = quoteInput("x".repeat(10_000));
    expect(quoted).toBe(`"${"x".repeat(QUOTED_INPUT_MAX)}…"`);
    // An emoji is one code point but two UTF-16 units: never split in half.
    expect(quoteInput("😀".repeat(QUOTED_INPUT_MAX + 1))).toBe(`"${"😀".repeat(QUOTED_INPUT_MAX)}…"`);
  });

  it("escapes bidirectional and invisible marks that would disguise the text", () => {
    expect(quoteInput("abc\u202edcba")).toBe('"abc\\u202edcba"');
    expect(quoteInput("\u200b\u0085\ufeff")).toBe('"\\u200b\\u0085\\ufeff"');
  });
});
