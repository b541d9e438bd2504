import type { FulfilmentMethod } from "./types";

/** Display helpers. None of them does arithmetic on money: amounts arrive formatted from the server. */

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
