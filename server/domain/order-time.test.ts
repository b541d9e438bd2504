import { describe, expect, it } from "vitest";
import type { WeeklyHours } from "./catalog-types";
import { orderTimeBlocker } from "./checkout-readiness";
import type { DeliveryCartFacts } from "./delivery";
import { orderNumberOf } from "./order-number";
import { estimatedReadyAt, orderTimeServable, type LocationSchedule } from "./schedule";

/** Every weekday the same windows. */
const daily = (...windows: { opens: string; closes: string }[]): WeeklyHours => Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((day) => [String(day), windows]));

const takeout = { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 20, slotMinutes: 15 };
const dubai: LocationSchedule = { timeZone: "Asia/Dubai", openingHours: daily({ opens: "10:00", closes: "23:00" }), fulfilment: { takeout } };
// Open across midnight: 18:00 to 02:00 the next morning, written as two windows.
const lateNight: LocationSchedule = { timeZone: "Europe/London", openingHours: daily({ opens: "00:00", closes: "02:00" }, { opens: "18:00", closes: "24:00" }), fulfilment: { takeout } };
const newYork: LocationSchedule = { timeZone: "America/New_York", openingHours: daily({ opens: "00:00", closes: "24:00" }), fulfilment: { takeout: { ...takeout, leadMinutes: 0 } } };

const asap = { fulfilmentMethod: "takeout" as const, pickupType: "ASAP" as const, orderDate: "", orderTime: "" };
const later = (orderDate: string, orderTime: string) => ({ fulfilmentMethod: "takeout" as const, pickupType: "LATER" as const, orderDate, orderTime });
const servable = (cart: Parameters<typeof orderTimeServable>[0], location: LocationSchedule, at: string) => orderTimeServable(cart, location, new Date(at)).servable;

describe("whether an order time can be served, at fixed clocks", () => {
  it("ASAP: open inside the hours, closed outside them, and not once the lead time reaches closing time", () => {
    expect(servable(asap, dubai, "2026-12-02T12:00:00+04:00")).toBe(true);
    expect(servable(asap, dubai, "2026-12-02T04:35:00+04:00")).toBe(false);
    // Takeout needs 20 minutes: an order at 22:39 is ready at 22:59, one at 22:40 only at closing time.
    expect(servable(asap, dubai, "2026-12-02T22:39:00+04:00")).toBe(true);
    expect(servable(asap, dubai, "2026-12-02T22:40:00+04:00")).toBe(false);
    expect(servable(asap, dubai, "2026-12-02T22:59:00+04:00")).toBe(false);
    expect(servable(asap, dubai, "2026-12-02T23:00:00+04:00")).toBe(false);
  });

  it("across midnight: open at 23:30 and at 01:30, closed at 02:00 and at 17:59", () => {
    expect(servable(asap, lateNight, "2026-12-02T23:30:00Z")).toBe(true);
    expect(servable(asap, lateNight, "2026-12-03T01:30:00Z")).toBe(true);
    expect(servable(asap, lateNight, "2026-12-03T02:00:00Z")).toBe(false);
    expect(servable(asap, lateNight, "2026-12-03T17:59:00Z")).toBe(false);
    expect(servable(later("2026-12-03", "01:00"), lateNight, "2026-12-02T23:30:00Z")).toBe(true);
  });

  it("LATER: bookable while ahead of the lead time, not once it is inside it or past", () => {
    expect(servable(later("2026-12-02", "10:30"), dubai, "2026-12-02T04:35:00+04:00")).toBe(true);
    expect(servable(later("2026-12-02", "10:30"), dubai, "2026-12-02T10:10:00+04:00")).toBe(true);
    expect(servable(later("2026-12-02", "10:30"), dubai, "2026-12-02T10:11:00+04:00")).toBe(false);
    expect(servable(later("2026-12-02", "23:15"), dubai, "2026-12-02T04:35:00+04:00")).toBe(false);
  });

  it("across a DST change: the hour that does not exist is never bookable, the hours around it are", () => {
    // 2026-03-08 02:00 EST jumps to 03:00 EDT in New York.
    expect(servable(asap, newYork, "2026-03-08T06:59:00Z")).toBe(true); // 01:59 EST
    expect(servable(asap, newYork, "2026-03-08T07:00:00Z")).toBe(true); // 03:00 EDT
    expect(servable(later("2026-03-08", "02:30"), newYork, "2026-03-08T05:00:00Z")).toBe(false);
    expect(servable(later("2026-03-08", "03:00"), newYork, "2026-03-08T05:00:00Z")).toBe(true);
  });
});

describe("the checkout blocker", () => {
  const cart = (choice: typeof asap | ReturnType<typeof later>): DeliveryCartFacts => ({ ...choice, deliveryInfo: null, deliveryQuote: null, priced: { subTotal: 3200 } });
  const location = { ...dubai, displayName: "Dune Grill" };

  it("names SCHEDULE_CLOSED and the way out when closed, and nothing when open", () => {
    expect(orderTimeBlocker(cart(asap), location, new Date("2026-12-02T04:35:00+04:00"))).toEqual({
      code: "SCHEDULE_CLOSED",
      message: expect.stringMatching(/Dune Grill is closed now: choose a later time/) as unknown,
      paths: ["orderTime"],
    });
    expect(orderTimeBlocker(cart(later("2026-12-02", "10:30")), location, new Date("2026-12-02T11:00:00+04:00"))?.message).toMatch(/2026-12-02 10:30\) can no longer be booked/);
    expect(orderTimeBlocker(cart(asap), location, new Date("2026-12-02T12:00:00+04:00"))).toBeUndefined();
    // Open, but closing (23:00) before a takeout order placed at 22:50 would be ready (20 minutes).
    expect(orderTimeBlocker(cart(asap), location, new Date("2026-12-02T22:50:00+04:00"))?.message).toMatch(/Dune Grill closes before an order placed now would be ready: choose a later time/);
  });
});

describe("when an order will be ready", () => {
  const placed = new Date("2026-12-02T12:00:00+04:00");
  it("ASAP: placed plus the method's lead time", () => {
    expect(estimatedReadyAt(asap, dubai, placed)?.toISOString()).toBe("2026-12-02T08:20:00.000Z");
    expect(estimatedReadyAt(asap, newYork, placed)?.toISOString()).toBe(placed.toISOString());
  });

  it("LATER: the booked local time, in the location's zone, DST included", () => {
    expect(estimatedReadyAt(later("2026-12-02", "18:30"), dubai, placed)?.toISOString()).toBe("2026-12-02T14:30:00.000Z");
    // New York: 08:00 local is 13:00Z in winter and 12:00Z in summer.
    const nyLater = { ...later("2027-03-15", "08:00"), fulfilmentMethod: "takeout" as const };
    const placedInMarch = new Date("2027-03-10T12:00:00Z");
    expect(estimatedReadyAt(nyLater, newYork, placedInMarch)?.toISOString()).toBe("2027-03-15T12:00:00.000Z");
    expect(estimatedReadyAt(later("2027-03-13", "08:00"), newYork, placedInMarch)?.toISOString()).toBe("2027-03-13T13:00:00.000Z");
    // A date that does not exist books nothing: ready at placement plus the lead time.
    expect(estimatedReadyAt(later("2027-02-30", "08:00"), newYork, placed)?.toISOString()).toBe(placed.toISOString());
  });

  it("LATER paid after its booked time (a late webhook): placement plus the lead time, never in the past", () => {
    const late = new Date("2026-12-02T18:40:00+04:00");
    expect(estimatedReadyAt(later("2026-12-02", "18:30"), dubai, late)?.toISOString()).toBe("2026-12-02T15:00:00.000Z");
  });

  it("delivery: the courier's quoted travel time comes on top; a lead time that is not a number counts as none", () => {
    const courier = { pickupEstimatedAt: "2026-12-02T08:20:00.000Z", dropoffEstimatedAt: "2026-12-02T08:47:00.000Z" };
    expect(estimatedReadyAt(asap, dubai, placed, courier)?.toISOString()).toBe("2026-12-02T08:47:00.000Z");
    expect(estimatedReadyAt(asap, dubai, placed, { dropoffEstimatedAt: "2026-12-02T08:47:00.000Z" })?.toISOString()).toBe("2026-12-02T08:20:00.000Z");
    const broken = { ...dubai, fulfilment: { takeout: { ...takeout, leadMinutes: Number.NaN } } };
    expect(estimatedReadyAt(asap, broken, placed)?.toISOString()).toBe(placed.toISOString());
  });

  it("nothing past the booking horizon: a courier estimate years away, or a booking in year 9999, gives no ready time", () => {
    const wayOff = { pickupEstimatedAt: "2026-12-02T08:20:00.000Z", dropoffEstimatedAt: "+010000-01-01T03:00:00.000Z" };
    expect(estimatedReadyAt(asap, dubai, placed, wayOff)).toBeUndefined();
    expect(estimatedReadyAt(later("9999-12-31", "19:00"), dubai, placed)).toBeUndefined();
    expect(estimatedReadyAt(later("2027-01-01", "19:00"), dubai, placed)?.toISOString()).toBe("2027-01-01T15:00:00.000Z");
  });
});

describe("order numbers", () => {
  it("are short, unambiguous, stable per order and differ between orders", () => {
    const numbers = Array.from({ length: 2000 }, (_, index) => orderNumberOf(`ord_${index}`));
    for (const number of numbers) expect(number).toMatch(/^[0-9A-HJKMNP-TV-Z]{3}-[0-9A-HJKMNP-TV-Z]{3}$/);
    expect(orderNumberOf("ord_7")).toBe(numbers[7]);
    expect(new Set(numbers).size).toBeGreaterThan(1990);
  });
});
