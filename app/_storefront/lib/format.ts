import type { FulfilmentMethod } from "./types";

/**
 * Display helpers. Amounts arrive formatted from the server; the one sum done here (a product line's
 * price while its options are chosen, lib/modifier-selection.ts linePriceMinor) is in integer minor units.
 */

export const methodLabels: Record<FulfilmentMethod, string> = {
  takeout: "Takeout",
  delivery: "Delivery",
  table_side: "Table-side",
  room_service: "Room service",
};

/** "0", "0.00", "-0.00": a decimal string that is zero (shown as "free", or hidden). */
export function isZeroDecimal(value: string): boolean {
  return /^-?0+(\.0+)?$/.test(value);
}

/** "4.50" and "4.5" are the same amount: compare decimal strings without trailing fraction zeros. */
export function sameDecimal(a: string, b: string): boolean {
  const strip = (value: string) => (value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value);
  return strip(a.trim()) === strip(b.trim());
}

/** A money amount as customers type it: digits with at most two decimals ("5", "4.50"). */
export const MONEY_INPUT = /^\d{1,7}(\.\d{1,2})?$/;

/** Same locales as the server's `...Formatted` strings, so amounts read alike across the page. */
const DISPLAY_LOCALE: Record<string, string> = { usd: "en-US", gbp: "en-GB", aed: "en-AE", aud: "en-AU" };

/**
 * A decimal string as money ("21.5", "usd" -> "$21.50"). Intl formats the string exactly: the
 * amount never becomes a float.
 */
export function formatMoney(decimal: string, currency: string): string {
  const code = currency.toLowerCase();
  const formatter = new Intl.NumberFormat(DISPLAY_LOCALE[code] ?? "en-US", { style: "currency", currency: code.toUpperCase() });
  return formatter.format(decimal as Intl.StringNumericLiteral);
}

/** Integer minor units as a decimal string (349 -> "3.49"), by moving the point: the currencies served have two minor digits. */
export function minorToDecimal(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`not an integer amount: ${minor}`);
  const digits = String(Math.abs(minor)).padStart(3, "0");
  return `${minor < 0 ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A decimal string of at most two fraction digits as integer minor units ("8.95" -> 895), by string, never by float. */
export function decimalToMinor(decimal: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(decimal.trim());
  if (!match) throw new Error(`not a money amount: ${decimal}`);
  const minor = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -minor : minor;
}

/** `rate` (a decimal string such as "0.18") of `minor`, rounded half up to a minor unit, as the service prices a rate-based tip. */
export function rateOfMinor(minor: number, rate: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) throw new Error(`not a rate: ${rate}`);
  const fraction = match[2] ?? "";
  const numerator = BigInt(`${match[1]}${fraction}`);
  const scale = 10n ** BigInt(fraction.length);
  return Number((2n * BigInt(minor) * numerator + scale) / (2n * scale));
}

/** "7:45 PM" at the location, for an instant. */
export function formatClock(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone }).format(new Date(instant));
}

/** The calendar date (YYYY-MM-DD) of an instant at the location, from its parts rather than a locale's layout. */
export function localDate(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** YYYY-MM-DD plus whole days, as a calendar date (no time zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number);
  const utc = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days));
  return utc.toISOString().slice(0, 10);
}

/** "Sat, Nov 22" for a calendar date. */
export function formatDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  const utc = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  return new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" }).format(utc);
}

/** "18:30" as "6:30 PM". */
export function formatTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  const utc = new Date(Date.UTC(2000, 0, 1, hours, minutes));
  return new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(utc);
}

/** A stable hue per product, so each placeholder tile keeps its colour across visits. */
export function placeholderHue(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

export function initialOf(name: string): string {
  return (name.trim()[0] ?? "?").toUpperCase();
}
