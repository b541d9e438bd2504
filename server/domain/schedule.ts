import { DateTime } from "luxon";
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

/** Parses a local date and optional time in `zone`; undefined when the date does not exist. */
export function localDateTime(zone: string, date: string, time = "00:00"): DateTime | undefined {
  if (!DATE_PATTERN.test(date) || !TIME_PATTERN.test(time)) return undefined;
  const parsed = DateTime.fromISO(`${date}T${time}`, { zone });
  return parsed.isValid && parsed.toISODate() === date ? parsed : undefined;
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
 * opening windows, no earlier than `now + leadMinutes`. Slots are "HH:MM" local times.
 */
export function bookableTimes(hours: WeeklyHours, zone: string, date: string, now: DateTime, option: FulfilmentOption): string[] {
  const day = localDateTime(zone, date);
  if (!day) return [];
  const earliest = now.setZone(zone).plus({ minutes: option.leadMinutes });
  const step = Math.max(5, option.slotMinutes);
  const times: string[] = [];
  for (const window of windowsOn(hours, day.weekday)) {
    const start = Math.ceil(minutesOf(window.opens) / step) * step;
    for (let minute = start; minute < minutesOf(window.closes); minute += step) {
      // Wall-clock time on `day` (not `day.plus({ minutes })`, which is absolute time and drifts by
      // the DST offset change for every slot after the transition).
      const slot = day.set({ hour: Math.floor(minute / 60), minute: minute % 60 });
      // Skip wall-clock times that a DST jump makes non-existent (luxon shifts them forward).
      if (slot.hour * 60 + slot.minute !== minute) continue;
      if (slot >= earliest) times.push(formatMinutes(minute));
    }
  }
  return times;
}

export function localToday(zone: string, now: DateTime): { date: string; time: string } {
  const local = now.setZone(zone);
  return { date: local.toFormat("yyyy-MM-dd"), time: local.toFormat("HH:mm") };
}

export type OrderTimeChoice = { fulfilmentMethod: FulfilmentMethod; pickupType: PickupType; orderDate: string; orderTime: string };
export type LocationSchedule = { timeZone: string; openingHours: WeeklyHours; fulfilment: FulfilmentPolicy };

/**
 * Whether the cart's order time can be served at `now`: ASAP needs the location open now; LATER needs
 * its date and time still to be one of the bookable times (in the future by the lead time, inside the
 * hours as they are now). `moment` is the local time the order is for; `label` names it for messages.
 */
export function orderTimeServable(cart: OrderTimeChoice, location: LocationSchedule, now: Date): { servable: boolean; moment: DateTime | null; label: string } {
  const nowLocal = DateTime.fromJSDate(now, { zone: location.timeZone });
  if (cart.pickupType === "ASAP") return { servable: isOpenAt(location.openingHours, nowLocal), moment: nowLocal, label: "ASAP" };
  const label = `${cart.orderDate} ${cart.orderTime}`;
  const moment = localDateTime(location.timeZone, cart.orderDate, cart.orderTime) ?? null;
  const option = location.fulfilment[cart.fulfilmentMethod];
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
 * quoted travel time (drop-off minus pick-up) after that. Undefined when nothing sensible can be said.
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
  return Number.isFinite(ready) ? new Date(ready) : undefined;
}
