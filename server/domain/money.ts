import Big from "big.js";
import { AppError, isAppError } from "../errors";
import { decimalFormatter, type DecimalFormatter } from "./display-format";

/**
 * Money is an integer count of minor units everywhere inside the service. Decimal strings exist
 * only at the API edge (`toDecimalString` / `parseDecimalToMinor`), and rates are decimal strings
 * applied with `applyRate`, which rounds half-up exactly once.
 */
export const currencies = ["usd", "gbp", "aed", "aud"] as const;
export type Currency = (typeof currencies)[number];

/** All four supported currencies have two minor-unit digits (ISO 4217). */
const MINOR_DIGITS: Record<Currency, number> = { usd: 2, gbp: 2, aed: 2, aud: 2 };

const DISPLAY_LOCALE: Record<Currency, string> = { usd: "en-US", gbp: "en-GB", aed: "en-AE", aud: "en-AU" };

export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

export type Minor = number;

/**
 * An amount past MAX_MINOR cannot be represented exactly, so it is refused as the client's request
 * (400 naming `field`), never computed with lost precision, stored, or left to fail later as a 500.
 * `details.maximumMinor` marks the refusal so a caller can name its own request field instead.
 */
export function amountOverflow(field: string, total: string = field): AppError {
  const fieldMessage = total === field ? `would be more than ${MAX_MINOR} minor units` : `would make ${total} more than ${MAX_MINOR} minor units`;
  return new AppError("VALIDATION_ERROR", `${field} ${fieldMessage}, the largest amount this service handles`, {
    details: { fields: [{ path: field, message: fieldMessage }], maximumMinor: MAX_MINOR },
  });
}

/** The total an amountOverflow names, or undefined for any other error. */
export function overflowedTotal(error: unknown): string | undefined {
  if (!isAppError(error) || error.details?.maximumMinor !== MAX_MINOR) return undefined;
  const fields = error.details.fields;
  const first = Array.isArray(fields) ? (fields[0] as { path?: unknown } | undefined) : undefined;
  return typeof first?.path === "string" ? first.path : undefined;
}

/** `value` when it is a safe integer (every sum and product of minor amounts goes through it), else amountOverflow(field). */
export function safeMinor(value: number, field: string): Minor {
  if (!Number.isSafeInteger(value)) throw amountOverflow(field);
  return value;
}

export function minorDigits(currency: Currency): number {
  return MINOR_DIGITS[currency];
}

/** 1234 usd -> "12.34"; -5 -> "-0.05". */
export function toDecimalString(amount: Minor, currency: Currency): string {
  assertMinor(amount);
  // Digits moved in a string: exact for every safe integer, and free of the Big objects this would
  // otherwise build for each of a cart's money fields (several per line).
  const digits = MINOR_DIGITS[currency];
  const magnitude = String(Math.abs(amount)).padStart(digits + 1, "0");
  const point = magnitude.length - digits;
  return `${amount < 0 ? "-" : ""}${magnitude.slice(0, point)}${digits > 0 ? `.${magnitude.slice(point)}` : ""}`;
}

const formatters = new Map<Currency, DecimalFormatter>();

/** An amount as the API writes it: its decimal string and its display string. */
export type AmountTexts = { decimal: string; formatted: string };

/**
 * Amounts' texts already made, by currency and amount. Intl's formatting was the costliest step of
 * a large cart's answer (a 100-line cart formats ~700 amounts), and carts repeat the same prices;
 * the decimal string is kept beside it, so a cart's ~30 amounts cost a lookup each.
 * Emptied when full, so it never holds more than AMOUNT_TEXTS_LIMIT amounts per currency.
 */
const AMOUNT_TEXTS_LIMIT = 10_000;
/** Each currency's lookup, made once: formatMinor and every cart answer use it. */
const amountTextLookups = new Map<Currency, (amount: Minor) => AmountTexts>();

/** The texts of amounts in one currency: `(amount) => AmountTexts`, made once per amount. */
export function amountTextsIn(currency: Currency): (amount: Minor) => AmountTexts {
  let lookup = amountTextLookups.get(currency);
  if (!lookup) {
    const kept = new Map<Minor, AmountTexts>();
    lookup = (amount) => {
      let texts = kept.get(amount);
      if (texts === undefined) {
        const decimal = toDecimalString(amount, currency);
        texts = { decimal, formatted: formatWithIntl(decimal, currency) };
        if (kept.size >= AMOUNT_TEXTS_LIMIT) kept.clear();
        kept.set(amount, texts);
      }
      return texts;
    };
    amountTextLookups.set(currency, lookup);
  }
  return lookup;
}

/** Display string for a minor amount, e.g. "$12.34", "£3.00", "AED 45.50". */
export function formatMinor(amount: Minor, currency: Currency): string {
  return amountTextsIn(currency)(amount).formatted;
}

/** The display string of a decimal string: Intl's currency format for the currency's locale (display-format.ts). */
function formatWithIntl(decimal: string, currency: Currency): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    // Intl formats a decimal *string* exactly, so no float ever touches the amount.
    formatter = decimalFormatter(displayFormat(currency));
    formatters.set(currency, formatter);
  }
  return formatter(decimal);
}

/** Intl's currency format for the currency in its display locale. */
export function displayFormat(currency: Currency): Intl.NumberFormat {
  return new Intl.NumberFormat(DISPLAY_LOCALE[currency], { style: "currency", currency: currency.toUpperCase() });
}

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

/**
 * Parses a non-negative decimal string (digits, optional fraction) into minor units. A fraction finer
 * than the currency's minor unit is refused rather than rounded: a client asking to pay "1.005" has a
 * bug we should surface, not hide. Trailing zeros are only a way of writing: "1.500" is 1.50.
 */
export function parseDecimalToMinor(value: string, currency: Currency): Minor | undefined {
  if (!DECIMAL_PATTERN.test(value)) return undefined;
  const [, fraction = ""] = value.split(".");
  if (fraction.replace(/0+$/, "").length > MINOR_DIGITS[currency]) return undefined;
  const minor = new Big(value).times(10 ** MINOR_DIGITS[currency]);
  if (minor.gt(MAX_MINOR)) return undefined;
  return minor.toNumber();
}

const RATE_PATTERN = /^\d+(\.\d{1,6})?$/;

export function isValidRate(rate: string): boolean {
  return RATE_PATTERN.test(rate) && new Big(rate).lte(1);
}

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * amount x rate, rounded half-up (half away from zero) to a whole minor unit. Rates are decimal
 * strings like "0.0875". Exact, in integers: the rate is digits / 10^scale, and amount x digits is
 * divided once, as safe integers or, past 2^53, as BigInt (big.js built digit arrays for the same
 * result on every repricing).
 */
export function applyRate(amount: Minor, rate: string): Minor {
  assertMinor(amount);
  const decimal = PLAIN_DECIMAL.exec(rate);
  // Any other form big.js reads (an exponent, a sign) keeps its exact arithmetic.
  if (!decimal) return new Big(amount).times(rate).round(0, Big.roundHalfUp).toNumber();
  const fraction = decimal[2] ?? "";
  const digits = `${decimal[1] ?? ""}${fraction}`;
  const sign = amount < 0 ? -1 : 1;
  const rounded = roundedQuotient(Math.abs(amount), digits, fraction.length);
  return rounded === 0 ? 0 : sign * rounded;
}

/** magnitude x digits / 10^scale, rounded half up. Below 2^53 a product, its remainder and its quotient are exact in doubles; past it, BigInt. */
function roundedQuotient(magnitude: number, digits: string, scale: number): number {
  const product = magnitude * Number(digits);
  if (Number.isSafeInteger(product) && scale <= 15) {
    const divisor = 10 ** scale;
    const leftOver = product % divisor;
    return (product - leftOver) / divisor + (2 * leftOver >= divisor ? 1 : 0);
  }
  const divisor = 10n ** BigInt(scale);
  return Number((BigInt(magnitude) * BigInt(digits) * 2n + divisor) / (2n * divisor));
}

/**
 * Splits `total` across `weights` in proportion, by largest remainder, so the parts always add up
 * to exactly `total` (used to spread an order-level discount across lines).
 */
export function allocateProportionally(total: Minor, weights: readonly Minor[]): Minor[] {
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  // Nothing to share (a cart without a discount, on every change): every share is 0.
  if (weightSum === 0 || total === 0) return weights.map(() => 0);
  // Each share is total x weight / weightSum, exactly: its whole part (rounded toward zero) and what
  // is left over, whose order is the order of the fractions (they share the denominator weightSum).
  const divisor = BigInt(weightSum);
  const shares = weights.map((weight) => {
    const product = BigInt(total) * BigInt(weight);
    return { whole: product / divisor, leftOver: product % divisor };
  });
  const floors = shares.map(({ whole }) => Number(whole));
  let remainder = total - floors.reduce((sum, value) => sum + value, 0);
  const order = shares
    .map(({ leftOver }, index) => ({ index, leftOver }))
    .sort((a, b) => (a.leftOver === b.leftOver ? a.index - b.index : a.leftOver < b.leftOver ? 1 : -1));
  for (const { index } of order) {
    if (remainder <= 0) break;
    floors[index] = (floors[index] ?? 0) + 1;
    remainder -= 1;
  }
  return floors;
}

function assertMinor(amount: number): void {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an integer minor amount: ${amount}`);
}
