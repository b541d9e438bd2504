/**
 * A currency's display format, taken from Intl once and then applied by hand: Intl.NumberFormat's
 * `format` costs ~1 us a call (several in a running request), and every change of a cart formats its
 * ~15 new totals. The format is read off Intl's own parts for one positive and one negative amount
 * (what comes before the digits, the group and decimal separators, what comes after), and used only
 * if it gives exactly Intl's text for a set of probe amounts; otherwise (a locale that groups digits
 * otherwise, say) Intl formats every amount.
 */
export type DecimalFormatter = (decimal: string) => string;

/** Amounts the derived format must write exactly as Intl does before it is used. */
const PROBES = ["0.00", "0.05", "1.00", "12.34", "999.99", "1000.00", "12345.67", "999999.99", "1000000.00", "123456789.01", "90071992547409.91"];

export function decimalFormatter(intl: Intl.NumberFormat): DecimalFormatter {
  const viaIntl: DecimalFormatter = (decimal) => intl.format(decimal as unknown as number);
  const positive = patternOf(intl.formatToParts("1234567.25" as unknown as number));
  const negative = patternOf(intl.formatToParts("-1234567.25" as unknown as number));
  if (!positive || !negative || positive.group !== negative.group || positive.decimal !== negative.decimal) return viaIntl;
  const { group, decimal: point } = positive;
  const byHand: DecimalFormatter = (decimal) => {
    const negativeAmount = decimal.startsWith("-");
    const unsigned = negativeAmount ? decimal.slice(1) : decimal;
    const dot = unsigned.indexOf(".");
    const integer = dot === -1 ? unsigned : unsigned.slice(0, dot);
    const fraction = dot === -1 ? "" : unsigned.slice(dot + 1);
    let grouped = integer.slice(-3);
    for (let end = integer.length - 3; end > 0; end -= 3) grouped = `${integer.slice(Math.max(0, end - 3), end)}${group}${grouped}`;
    const { before, after } = negativeAmount ? negative : positive;
    return `${before}${grouped}${fraction === "" ? "" : `${point}${fraction}`}${after}`;
  };
  const agrees = PROBES.every((probe) => byHand(probe) === viaIntl(probe) && byHand(`-${probe}`) === viaIntl(`-${probe}`));
  return agrees ? byHand : viaIntl;
}

type Pattern = { before: string; after: string; group: string; decimal: string };

/** What surrounds the number in Intl's parts for 1,234,567.25 (or its negative), or undefined if the number is not one run of digit groups. */
function patternOf(parts: Intl.NumberFormatPart[]): Pattern | undefined {
  const numeric = new Set(["integer", "group", "decimal", "fraction"]);
  const first = parts.findIndex((part) => numeric.has(part.type));
  let last = -1;
  parts.forEach((part, index) => {
    if (numeric.has(part.type)) last = index;
  });
  if (first === -1) return undefined;
  const number = parts.slice(first, last + 1);
  if (!number.every((part) => numeric.has(part.type))) return undefined;
  const groups = number.filter((part) => part.type === "group").map((part) => part.value);
  const decimals = number.filter((part) => part.type === "decimal").map((part) => part.value);
  const integers = number.filter((part) => part.type === "integer").map((part) => part.value);
  // Three-digit groups: 1 / 234 / 567, split by one separator.
  if (integers.join("|") !== "1|234|567" || new Set(groups).size !== 1 || decimals.length !== 1) return undefined;
  const text = (from: Intl.NumberFormatPart[]) => from.map((part) => part.value).join("");
  return { before: text(parts.slice(0, first)), after: text(parts.slice(last + 1)), group: groups[0] ?? ",", decimal: decimals[0] ?? "." };
}
