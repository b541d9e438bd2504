import { DateTime, IANAZone } from "luxon";
import type { PickupType } from "./cart-types";
import type { FulfilmentMethod, FulfilmentOption, FulfilmentPolicy, MenuAvailability, OpeningWindow, WeeklyHours } from "./catalog-types";

/**
 * Opening hours, bookable order times and menu availability, all in the location's own time zone.
 * Times are "HH:MM" local; a window's `closes` may be "24:00" (midnight at the end of the day).
 */
export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export function minutesOf(time: string): number {
  const [hours = "0", minutes = "0"] = time.split(":");
  return Number(hours) * 60 + Number(minutes);
}

function formatMinutes(total: number): string {
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

/**
 * How far ahead a LATER order can be booked: on the location's today and the next ORDER_AHEAD_DAYS
 * days. Beyond it there are no bookable times (a kitchen plans a month ahead at most, and a date
 * in year 9999 made a ready time Postgres cannot store, after the card was charged).
 */
export const ORDER_AHEAD_DAYS = 30;

/** Whether `date` (YYYY-MM-DD) is a day of the calendar; which zone does not matter. */
export function isCalendarDate(date: string): boolean {
  return DATE_PATTERN.test(date) && DateTime.fromISO(date, { zone: "utc" }).toISODate() === date;
}

/**
 * The instant of a local date and time in `zone`, the one every schedule answer uses (bookable
 * times, their `startsAt`, the ready time). Undefined when the date does not exist, or the time
 * does not on that date (a DST jump skips it). A time that a DST fall-back repeats is its later
 * occurrence. Resolved here, not by luxon's parser, whose choice for a repeated time follows the
 * offset the zone has at the machine's real current time (so it changed with the season).
 */
export function localDateTime(zone: string, date: string, time = "00:00"): DateTime | undefined {
  // IANAZone.create keeps one instance per name, with its validity (isValidZone would build a formatter each call).
  const named = IANAZone.create(zone);
  if (!DATE_PATTERN.test(date) || !TIME_PATTERN.test(time) || !named.isValid) return undefined;
  // The wall time read as if it were UTC; a date that does not exist (30 February) rolls over and is refused.
  const [year = 0, month = 0, day = 0] = date.split("-").map(Number);
  const wall = new Date(Date.UTC(2000, month - 1, day, Math.floor(minutesOf(time) / 60), minutesOf(time) % 60));
  wall.setUTCFullYear(year); // Date.UTC would read years 0-99 as 1900-1999
  const wallMillis = wall.getTime();
  if (wall.toISOString().slice(0, 10) !== date) return undefined;
  // The zone's offsets a day either side: every instant that reads as this wall time has one of
  // them, and an instant reads as it exactly when the zone's offset there is the one it was made with.
  let latest: number | undefined;
  for (const offset of new Set([named.offset(wallMillis - 86_400_000), named.offset(wallMillis + 86_400_000)])) {
    const instant = wallMillis - offset * 60_000;
    if (named.offset(instant) === offset && (latest === undefined || instant > latest)) latest = instant;
  }
  return latest === undefined ? undefined : DateTime.fromMillis(latest, { zone });
}

export function windowsOn(hours: WeeklyHours, weekday: number): OpeningWindow[] {
  return hours[String(weekday) as keyof WeeklyHours] ?? [];
}

export function isOpenAt(hours: WeeklyHours, at: DateTime): boolean {
  const minute = at.hour * 60 + at.minute;
  return windowsOn(hours, at.weekday).some((window) => minute >= minutesOf(window.opens) && minute < minutesOf(window.closes));
}

export function isMenuAvailableAt(availability: MenuAvailability | null, at: DateTime): boolean {
  if (availability === null) return true;
  const minute = at.hour * 60 + at.minute;
  return availability.some(
    (window) => window.days.includes(at.weekday) && minute >= minutesOf(window.opens) && minute < minutesOf(window.closes),
  );
}

/**
 * The bookable order times of `date` for one fulfilment method: every `slotMinutes` step inside the
 * opening windows, no earlier than `now + leadMinutes`, on a date no later than ORDER_AHEAD_DAYS
 * after the location's today. Slots are "HH:MM" local times.
 */
export function bookableTimes(hours: WeeklyHours, zone: string, date: string, now: DateTime, option: FulfilmentOption): string[] {
  if (!isCalendarDate(date) || date > lastBookableDate(zone, now)) return [];
  const earliest = now.setZone(zone).plus({ minutes: option.leadMinutes });
  const step = Math.max(5, option.slotMinutes);
  const weekday = DateTime.fromISO(date, { zone: "utc" }).weekday;
  const times: string[] = [];
  for (const window of windowsOn(hours, weekday)) {
    const start = Math.ceil(minutesOf(window.opens) / step) * step;
    for (let minute = start; minute < minutesOf(window.closes); minute += step) {
      const time = formatMinutes(minute);
      // The same instant the slot's startsAt and the order's ready time are read as; none for a
      // wall-clock time a DST jump skips.
      const slot = localDateTime(zone, date, time);
      if (slot && slot >= earliest) times.push(time);
    }
  }
  return times;
}

function lastBookableDate(zone: string, now: DateTime): string {
  return now.setZone(zone).plus({ days: ORDER_AHEAD_DAYS }).toFormat("yyyy-MM-dd");
}

/**
 * Whether an ASAP order placed at `now` can be ready while the location is open: open now, and
 * without a break until `now + leadMinutes` (across adjoining windows, midnight included). Open a
 * minute before closing is not enough for a kitchen that needs twenty.
 */
export function asapAvailable(hours: WeeklyHours, now: DateTime, leadMinutes: number): boolean {
  const ready = now.plus({ minutes: Math.max(0, leadMinutes) });
  let at = now;
  // Each turn moves to the end of the window `at` is in; a week of windows is the most there can be.
  for (let turn = 0; turn < 7 * 48; turn += 1) {
    const minute = at.hour * 60 + at.minute;
    const window = windowsOn(hours, at.weekday).find((open) => minute >= minutesOf(open.opens) && minute < minutesOf(open.closes));
    if (!window) return false;
    const closesAt = minutesOf(window.closes);
    const closes = closesAt >= 24 * 60 ? at.startOf("day").plus({ days: 1 }) : at.set({ hour: Math.floor(closesAt / 60), minute: closesAt % 60, second: 0, millisecond: 0 });
    if (ready < closes) return true;
    if (closes <= at) return false;
    at = closes;
  }
  return false;
}

export function localToday(zone: string, now: DateTime): { date: string; time: string } {
  const local = now.setZone(zone);
  return { date: local.toFormat("yyyy-MM-dd"), time: local.toFormat("HH:mm") };
}

export type OrderTimeChoice = { fulfilmentMethod: FulfilmentMethod; pickupType: PickupType; orderDate: string; orderTime: string };
export type LocationSchedule = { timeZone: string; openingHours: WeeklyHours; fulfilment: FulfilmentPolicy };

/**
 * Whether the cart's order time can be served at `now`: ASAP needs the location open from now until
 * the order is ready (asapAvailable); LATER needs
 * its date and time still to be one of the bookable times (in the future by the lead time, inside the
 * hours as they are now). `moment` is the local time the order is for; `label` names it for messages.
 */
export function orderTimeServable(cart: OrderTimeChoice, location: LocationSchedule, now: Date): { servable: boolean; moment: DateTime | null; label: string } {
  const nowLocal = DateTime.fromJSDate(now, { zone: location.timeZone });
  const option = location.fulfilment[cart.fulfilmentMethod];
  if (cart.pickupType === "ASAP") return { servable: asapAvailable(location.openingHours, nowLocal, option?.leadMinutes ?? 0), moment: nowLocal, label: "ASAP" };
  const label = `${cart.orderDate} ${cart.orderTime}`;
  const moment = localDateTime(location.timeZone, cart.orderDate, cart.orderTime) ?? null;
  if (!moment || !option) return { servable: false, moment, label };
  return { servable: bookableTimes(location.openingHours, location.timeZone, cart.orderDate, nowLocal, option).includes(cart.orderTime), moment, label };
}

/** The courier's quoted times, when the cart has a delivery quote. */
export type CourierEstimate = { pickupEstimatedAt?: string | undefined; dropoffEstimatedAt?: string | undefined };

const instant = (text: string | undefined): number | undefined => {
  const at = text === undefined ? NaN : Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
};

/**
 * When the order should be ready, fixed as it is placed: the kitchen needs the method's lead time from
 * placement, and a LATER order is not ready before its booked time (a payment settled after the booked
 * time is ready at placement plus the lead time, never in the past). A delivery arrives the courier's
 * quoted travel time (drop-off minus pick-up) after that. Undefined when nothing sensible can be said
 * (also a time more than the booking horizon and two days after placement).
 */
export function estimatedReadyAt(choice: OrderTimeChoice, location: LocationSchedule, placedAt: Date, courier?: CourierEstimate | null): Date | undefined {
  const lead = location.fulfilment[choice.fulfilmentMethod]?.leadMinutes;
  let ready = placedAt.getTime() + (typeof lead === "number" && Number.isFinite(lead) && lead > 0 ? lead * 60_000 : 0);
  if (choice.pickupType === "LATER") {
    const booked = localDateTime(location.timeZone, choice.orderDate, choice.orderTime)?.toMillis();
    if (booked !== undefined) ready = Math.max(ready, booked);
  }
  const pickup = instant(courier?.pickupEstimatedAt);
  const dropoff = instant(courier?.dropoffEstimatedAt);
  if (pickup !== undefined && dropoff !== undefined && dropoff >= pickup) ready += dropoff - pickup;
  // Past the booking horizon nothing sensible is known (a courier's estimate gone wrong): the order is
  // placed without a ready time rather than with one the database cannot store.
  const latest = placedAt.getTime() + (ORDER_AHEAD_DAYS + 2) * 86_400_000;
  return Number.isFinite(ready) && ready <= latest ? new Date(ready) : undefined;
}
