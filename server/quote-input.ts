/** Longest piece of client input an error message repeats. */
export const QUOTED_INPUT_MAX = 40;

/** Code points JSON.stringify leaves as they are but that hide or reorder text: C1 controls, invisible and bidirectional marks, variation selectors. */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
];

const isInvisible = (codePoint: number) => INVISIBLE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);

/**
 * Client input repeated in an error message: cut to QUOTED_INPUT_MAX characters (whole code points,
 * marked with "…") and written as a JSON string, so control characters, quotes and bidirectional
 * marks arrive escaped (JSON.stringify escapes C0 controls and lone surrogates; the rest here). A
 * message names what was refused without echoing a payload back verbatim.
 */
export function quoteInput(value: string): string {
  const points = Array.from(value);
  const cut = points.length > QUOTED_INPUT_MAX ? `${points.slice(0, QUOTED_INPUT_MAX).join("")}…` : value;
  return Array.from(JSON.stringify(cut), (char) => {
    const codePoint = char.codePointAt(0) ?? 0;
    return isInvisible(codePoint) ? `\\u${codePoint.toString(16).padStart(4, "0")}` : char;
  }).join("");
}
