import { DateTime, Settings } from "luxon";
import { describe, expect, it } from "vitest";
import type { FulfilmentOption, MenuAvailability, WeeklyHours } from "./catalog-types";
import { asapAvailable, bookableTimes, isMenuAvailableAt, isOpenAt, localDateTime, localToday, minutesOf, ORDER_AHEAD_DAYS, windowsOn } from "./schedule";

const NEW_YORK = "America/New_York";
const DUBAI = "Asia/Dubai";

const allDay = { opens: "00:00", closes: "24:00" };
const everyDayAllDay: WeeklyHours = { "1": [allDay], "2": [allDay], "3": [allDay], "4": [allDay], "5": [allDay], "6": [allDay], "7": [allDay] };
const tenToEleven = { opens: "10:00", closes: "23:00" };
/** Dubai location: 10:00-23:00 every day except Friday ("5"), which is closed. */
const dubaiHours: WeeklyHours = { "1": [tenToEleven], "2": [tenToEleven], "3": [tenToEleven], "4": [tenToEleven], "6": [tenToEleven], "7": [tenToEleven] };

function option(leadMinutes: number, slotMinutes: number): FulfilmentOption {
  return { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes, slotMinutes };
}

/** Every "HH:MM" from `from` (inclusive) to `to` (exclusive) in `step` minutes. */
function times(from: string, to: string, step: number): string[] {
  const out: string[] = [];
  for (let minute = minutesOf(from); minute < minutesOf(to); minute += step) {
    out.push(`${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`);
  }
  return out;
}

function at(iso: string, zone: string): DateTime {
  const value = DateTime.fromISO(iso, { zone });
  if (!value.isValid) throw new Error(`bad fixture ${iso}`);
  return value;
}

describe("minutesOf / windowsOn", () => {
  it("converts HH:MM to minutes after midnight, including 24:00", () => {
    expect(minutesOf("00:00")).toBe(0);
    expect(minutesOf("10:30")).toBe(630);
    expect(minutesOf("23:59")).toBe(1439);
    expect(minutesOf("24:00")).toBe(1440);
  });

  it("looks up windows by ISO weekday, empty for a missing day", () => {
    expect(windowsOn(dubaiHours, 1)).toEqual([tenToEleven]);
    expect(windowsOn(dubaiHours, 5)).toEqual([]);
  });
});

describe("localDateTime", () => {
  it("parses a local date and time in the zone", () => {
    const value = localDateTime(NEW_YORK, "2026-06-15", "14:30");
    expect(value?.toISO()).toBe("2026-06-15T14:30:00.000-04:00");
    expect(localDateTime(DUBAI, "2026-01-10")?.toISO()).toBe("2026-01-10T00:00:00.000+04:00");
  });

  it("reads every year of the pattern as itself, 0050 included", () => {
    expect(localDateTime(DUBAI, "0050-03-01", "12:00")?.toISODate()).toBe("0050-03-01");
    expect(localDateTime(DUBAI, "9999-12-31", "23:59")?.toISODate()).toBe("9999-12-31");
  });

  it("accepts 29 February only in leap years", () => {
    expect(localDateTime(NEW_YORK, "2028-02-29")?.toISODate()).toBe("2028-02-29");
    expect(localDateTime(NEW_YORK, "2026-02-29")).toBeUndefined();
  });

  it.each([
    ["2026-02-30", "00:00", "30 February"],
    ["2026-04-31", "00:00", "31 April"],
    ["2026-13-01", "00:00", "month 13"],
    ["2026-00-10", "00:00", "month 0"],
    ["2026-6-15", "00:00", "unpadded month"],
    ["26-06-15", "00:00", "two-digit year"],
    ["2026-06-15T10:00", "00:00", "date with time"],
    ["2026-06-15", "24:00", "24:00 is only a closing time"],
    ["2026-06-15", "23:60", "minute 60"],
    ["2026-06-15", "9:00", "unpadded hour"],
    ["2026-06-15", "09:00:00", "seconds"],
  ])("rejects %s %s (%s)", (date, time) => {
    expect(localDateTime(NEW_YORK, date, time)).toBeUndefined();
  });

  it("rejects an unknown time zone", () => {
    expect(localDateTime("Mars/Olympus_Mons", "2026-06-15")).toBeUndefined();
  });
});

describe("isOpenAt", () => {
  const monday = (time: string) => at(`2026-06-15T${time}`, DUBAI);

  it("is open from the opening minute and closed from the closing minute", () => {
    expect(isOpenAt(dubaiHours, monday("09:59"))).toBe(false);
    expect(isOpenAt(dubaiHours, monday("10:00"))).toBe(true);
    expect(isOpenAt(dubaiHours, monday("22:59"))).toBe(true);
    expect(isOpenAt(dubaiHours, monday("22:59:59"))).toBe(true);
    expect(isOpenAt(dubaiHours, monday("23:00"))).toBe(false);
  });

  it("is closed all day on a day without windows", () => {
    expect(isOpenAt(dubaiHours, at("2026-06-19T12:00", DUBAI))).toBe(false); // Friday
  });

  it("treats 24:00 as the end of the day", () => {
    const lateHours: WeeklyHours = { "1": [{ opens: "18:00", closes: "24:00" }] };
    expect(isOpenAt(lateHours, at("2026-06-15T23:59", NEW_YORK))).toBe(true);
    expect(isOpenAt(lateHours, at("2026-06-16T00:00", NEW_YORK))).toBe(false); // Tuesday has no windows
    expect(isOpenAt(everyDayAllDay, at("2026-06-16T00:00", NEW_YORK))).toBe(true);
  });

  it("respects gaps between windows", () => {
    const split: WeeklyHours = { "1": [{ opens: "11:00", closes: "14:00" }, { opens: "17:00", closes: "22:00" }] };
    expect(isOpenAt(split, at("2026-06-15T13:59", NEW_YORK))).toBe(true);
    expect(isOpenAt(split, at("2026-06-15T14:00", NEW_YORK))).toBe(false);
    expect(isOpenAt(split, at("2026-06-15T16:59", NEW_YORK))).toBe(false);
    expect(isOpenAt(split, at("2026-06-15T17:00", NEW_YORK))).toBe(true);
  });

  it("reads the wall clock of the DateTime's own zone", () => {
    // 06:30 UTC is 10:30 in Dubai (open) but 06:30 in UTC (before opening).
    const instant = DateTime.fromISO("2026-06-15T06:30:00Z", { zone: "utc" });
    expect(isOpenAt(dubaiHours, instant)).toBe(false);
    expect(isOpenAt(dubaiHours, instant.setZone(DUBAI))).toBe(true);
  });
});

describe("isMenuAvailableAt", () => {
  const lunchWeekdays: MenuAvailability = [{ days: [1, 2, 3, 4, 5], opens: "11:30", closes: "15:00" }];

  it("is always available without restrictions", () => {
    expect(isMenuAvailableAt(null, at("2026-06-15T03:00", NEW_YORK))).toBe(true);
  });

  it("is never available with an empty list of windows", () => {
    expect(isMenuAvailableAt([], at("2026-06-15T12:00", NEW_YORK))).toBe(false);
  });

  it("is available from the opening minute and not at the closing minute", () => {
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-15T11:29", NEW_YORK))).toBe(false);
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-15T11:30", NEW_YORK))).toBe(true);
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-15T14:59", NEW_YORK))).toBe(true);
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-15T15:00", NEW_YORK))).toBe(false);
  });

  it("only on the listed ISO weekdays", () => {
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-19T12:00", NEW_YORK))).toBe(true); // Friday = 5
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-20T12:00", NEW_YORK))).toBe(false); // Saturday = 6
    expect(isMenuAvailableAt(lunchWeekdays, at("2026-06-21T12:00", NEW_YORK))).toBe(false); // Sunday = 7
  });

  it("treats 24:00 as the end of the day", () => {
    const lateNight: MenuAvailability = [{ days: [7], opens: "22:00", closes: "24:00" }];
    expect(isMenuAvailableAt(lateNight, at("2026-06-21T23:59", NEW_YORK))).toBe(true);
    expect(isMenuAvailableAt(lateNight, at("2026-06-22T00:00", NEW_YORK))).toBe(false);
  });
});

describe("bookableTimes", () => {
  it("all-day New York location: every slot from now + lead time to midnight", () => {
    const now = at("2026-06-15T14:07:00", NEW_YORK); // 18:07Z
    // earliest = 14:27 -> first 15-minute slot 14:30
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", now, option(20, 15))).toEqual(times("14:30", "24:00", 15));
    // the next day is entirely bookable
    const tomorrow = bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-16", now, option(20, 15));
    expect(tomorrow).toHaveLength(96);
    expect(tomorrow[0]).toBe("00:00");
    expect(tomorrow.at(-1)).toBe("23:45");
  });

  it("lead time that pushes into the next day leaves today empty", () => {
    const now = at("2026-06-15T23:30:00", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", now, option(45, 15))).toEqual([]);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-16", now, option(45, 15)).slice(0, 2)).toEqual(["00:15", "00:30"]);
  });

  it("a slot exactly at now + lead time is bookable; one second later it is not", () => {
    const exact = at("2026-06-15T14:00:00", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", exact, option(30, 30))[0]).toBe("14:30");
    const late = at("2026-06-15T14:00:01", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", late, option(30, 30))[0]).toBe("15:00");
  });

  it("compares instants, whatever zone `now` is given in", () => {
    const nowUtc = DateTime.fromISO("2026-06-15T18:07:00Z", { zone: "utc" }); // 14:07 in New York
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", nowUtc, option(20, 15))[0]).toBe("14:30");
  });

  it("10:00-23:00 Dubai location: slots from opening to the last one before closing", () => {
    const now = at("2026-06-15T08:00", DUBAI);
    const expected = times("10:00", "23:00", 30);
    expect(expected).toHaveLength(26);
    expect(bookableTimes(dubaiHours, DUBAI, "2026-06-15", now, option(15, 30))).toEqual(expected);
    // mid-afternoon: 15:50 + 15 = 16:05 -> first slot 16:30
    const afternoon = at("2026-06-15T15:50", DUBAI);
    expect(bookableTimes(dubaiHours, DUBAI, "2026-06-15", afternoon, option(15, 30))).toEqual(times("16:30", "23:00", 30));
  });

  it("a closed day has no slots", () => {
    const now = at("2026-06-15T08:00", DUBAI);
    expect(bookableTimes(dubaiHours, DUBAI, "2026-06-19", now, option(0, 30))).toEqual([]); // Friday
    expect(bookableTimes({}, DUBAI, "2026-06-16", now, option(0, 30))).toEqual([]);
  });

  it("a date in the past has no slots", () => {
    const now = at("2026-06-15T08:00", DUBAI);
    expect(bookableTimes(dubaiHours, DUBAI, "2026-06-14", now, option(0, 30))).toEqual([]);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2025-12-31", now, option(0, 30))).toEqual([]);
  });

  it("an invalid date has no slots", () => {
    const now = at("2026-01-01T00:00", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-02-30", now, option(0, 30))).toEqual([]);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "not-a-date", now, option(0, 30))).toEqual([]);
  });

  it("spaces slots by slotMinutes, aligned to multiples of the step from midnight", () => {
    const now = at("2026-06-01T00:00", NEW_YORK);
    const odd: WeeklyHours = { "1": [{ opens: "10:10", closes: "11:00" }] };
    expect(bookableTimes(odd, NEW_YORK, "2026-06-15", now, option(0, 15))).toEqual(["10:15", "10:30", "10:45"]);
    expect(bookableTimes(odd, NEW_YORK, "2026-06-15", now, option(0, 20))).toEqual(["10:20", "10:40"]);
    const hourly = bookableTimes(everyDayAllDay, NEW_YORK, "2026-06-15", now, option(0, 60));
    expect(hourly).toEqual(times("00:00", "24:00", 60));
  });

  it("never spaces slots closer than 5 minutes", () => {
    const now = at("2026-06-01T00:00", NEW_YORK);
    const short: WeeklyHours = { "1": [{ opens: "12:00", closes: "12:20" }] };
    expect(bookableTimes(short, NEW_YORK, "2026-06-15", now, option(0, 1))).toEqual(["12:00", "12:05", "12:10", "12:15"]);
    expect(bookableTimes(short, NEW_YORK, "2026-06-15", now, option(0, 0))).toEqual(["12:00", "12:05", "12:10", "12:15"]);
  });

  it("covers every window of a split day", () => {
    const now = at("2026-06-01T00:00", NEW_YORK);
    const split: WeeklyHours = { "1": [{ opens: "11:00", closes: "12:00" }, { opens: "18:00", closes: "19:00" }] };
    expect(bookableTimes(split, NEW_YORK, "2026-06-15", now, option(0, 30))).toEqual(["11:00", "11:30", "18:00", "18:30"]);
  });

  it("takes dates up to ORDER_AHEAD_DAYS after the location's today, none later (year 9999 included)", () => {
    const now = at("2026-06-15T14:07:00", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-07-15", now, option(20, 15))).toHaveLength(96);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-07-16", now, option(20, 15))).toEqual([]);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "9999-12-31", now, option(20, 15))).toEqual([]);
    // The location's today, not UTC's: at 21:00 in New York it is already 16 June in UTC.
    const evening = at("2026-06-15T21:00:00", NEW_YORK);
    expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-07-15", evening, option(20, 15))).toHaveLength(96);
    expect(ORDER_AHEAD_DAYS).toBe(30);
  });

  describe("DST in New York", () => {
    const weekBefore = at("2026-03-01T12:00", NEW_YORK);
    const weekBeforeFallBack = at("2026-10-25T12:00", NEW_YORK);

    it("spring forward (2026-03-08): no slot in the missing hour, no slot lost after it", () => {
      const slots = bookableTimes(everyDayAllDay, NEW_YORK, "2026-03-08", weekBefore, option(0, 30));
      const expected = times("00:00", "24:00", 30).filter((time) => !time.startsWith("02:"));
      expect(slots).toEqual(expected);
      expect(slots).toHaveLength(46);
      expect(new Set(slots).size).toBe(slots.length);
      for (const time of slots) {
        // every offered slot is a real local time that reads back unchanged
        expect(localDateTime(NEW_YORK, "2026-03-08", time)?.toFormat("HH:mm")).toBe(time);
      }
    });

    it("spring forward with 15-minute slots skips exactly 02:00-02:45", () => {
      const slots = bookableTimes(everyDayAllDay, NEW_YORK, "2026-03-08", weekBefore, option(0, 15));
      expect(slots).toHaveLength(92);
      expect(slots.slice(6, 10)).toEqual(["01:30", "01:45", "03:00", "03:15"]);
    });

    it("spring forward: lead time crosses the gap in real elapsed minutes", () => {
      // 01:45 EST + 30 minutes = 02:15 EST = 03:15 EDT
      const now = at("2026-03-08T01:45", NEW_YORK);
      expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-03-08", now, option(30, 15))[0]).toBe("03:15");
    });

    it("fall back (2026-11-01): each wall-clock time once, none lost after the change", () => {
      const slots = bookableTimes(everyDayAllDay, NEW_YORK, "2026-11-01", weekBeforeFallBack, option(0, 30));
      expect(slots).toEqual(times("00:00", "24:00", 30));
      expect(slots).toHaveLength(48);
      expect(new Set(slots).size).toBe(slots.length);
    });

    it("a repeated wall-clock time is its later occurrence whatever the season the machine's clock is in", () => {
      const realNow = Settings.now;
      try {
        for (const machineNow of ["2027-07-01T12:00:00Z", "2027-01-15T12:00:00Z"]) {
          Settings.now = () => Date.parse(machineNow);
          expect(localDateTime(NEW_YORK, "2027-11-07", "01:30")?.toUTC().toISO(), machineNow).toBe("2027-11-07T06:30:00.000Z");
          expect(localDateTime(NEW_YORK, "2027-03-14", "02:30"), machineNow).toBeUndefined();
          expect(localDateTime(NEW_YORK, "2027-07-04", "12:00")?.toUTC().toISO(), machineNow).toBe("2027-07-04T16:00:00.000Z");
          expect(bookableTimes(everyDayAllDay, NEW_YORK, "2027-11-07", DateTime.fromISO("2027-11-07T06:05:00Z"), option(20, 30))[0], machineNow).toBe("01:30");
        }
      } finally {
        Settings.now = realNow;
      }
    });

    it("fall back (2027-11-07): a slot's instant is its startsAt, so a repeated hour's slot is offered when it is still ahead", () => {
      // 01:05 EST (the second 01:05), lead 20: 01:30 EST is 25 minutes ahead, and 01:30 reads as EST.
      const now = DateTime.fromISO("2027-11-07T06:05:00Z");
      const slots = bookableTimes(everyDayAllDay, NEW_YORK, "2027-11-07", now, option(20, 30));
      expect(slots[0]).toBe("01:30");
      expect(localDateTime(NEW_YORK, "2027-11-07", "01:30")?.toUTC().toISO()).toBe("2027-11-07T06:30:00.000Z");
      // Every offered slot's instant is at or after now + lead.
      for (const time of slots) expect(localDateTime(NEW_YORK, "2027-11-07", time)!.toMillis()).toBeGreaterThanOrEqual(now.plus({ minutes: 20 }).toMillis());
    });

    it("ordinary days before and after have every slot", () => {
      expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-03-09", weekBefore, option(0, 30))).toEqual(times("00:00", "24:00", 30));
      expect(bookableTimes(everyDayAllDay, NEW_YORK, "2026-10-31", weekBeforeFallBack, option(0, 30))).toEqual(times("00:00", "24:00", 30));
    });

    it("evening hours on a DST day keep their slots", () => {
      const evenings: WeeklyHours = { "7": [{ opens: "17:00", closes: "22:00" }] };
      const expected = times("17:00", "22:00", 60);
      expect(bookableTimes(evenings, NEW_YORK, "2026-03-08", weekBefore, option(0, 60))).toEqual(expected);
      expect(bookableTimes(evenings, NEW_YORK, "2026-11-01", weekBeforeFallBack, option(0, 60))).toEqual(expected);
    });
  });
});

describe("asapAvailable", () => {
  it("needs the location open from now until the order is ready", () => {
    // Dubai 10:00-23:00; lead 20 minutes.
    expect(asapAvailable(dubaiHours, at("2026-11-30T22:39", DUBAI), 20)).toBe(true);
    expect(asapAvailable(dubaiHours, at("2026-11-30T22:40", DUBAI), 20)).toBe(false);
    expect(asapAvailable(dubaiHours, at("2026-11-30T22:59", DUBAI), 20)).toBe(false);
    expect(asapAvailable(dubaiHours, at("2026-11-30T22:59", DUBAI), 0)).toBe(true);
    expect(asapAvailable(dubaiHours, at("2026-11-30T09:59", DUBAI), 0)).toBe(false);
  });

  it("carries on across adjoining windows and past midnight, not across a break", () => {
    expect(asapAvailable(everyDayAllDay, at("2026-06-15T23:50", NEW_YORK), 45)).toBe(true);
    const adjoining: WeeklyHours = { "1": [{ opens: "10:00", closes: "15:00" }, { opens: "15:00", closes: "22:00" }] };
    expect(asapAvailable(adjoining, at("2026-06-15T14:50", NEW_YORK), 30)).toBe(true);
    const split: WeeklyHours = { "1": [{ opens: "10:00", closes: "15:00" }, { opens: "17:00", closes: "22:00" }] };
    expect(asapAvailable(split, at("2026-06-15T14:50", NEW_YORK), 30)).toBe(false);
    const lateNight: WeeklyHours = { "1": [{ opens: "18:00", closes: "24:00" }], "2": [{ opens: "00:00", closes: "02:00" }] };
    expect(asapAvailable(lateNight, at("2026-06-15T23:50", NEW_YORK), 30)).toBe(true);
    expect(asapAvailable(lateNight, at("2026-06-16T01:50", NEW_YORK), 30)).toBe(false);
  });
});

describe("localToday", () => {
  it("gives the local date and time in the zone", () => {
    const now = DateTime.fromISO("2026-06-15T22:30:00Z", { zone: "utc" });
    expect(localToday(DUBAI, now)).toEqual({ date: "2026-06-16", time: "02:30" });
    expect(localToday(NEW_YORK, now)).toEqual({ date: "2026-06-15", time: "18:30" });
  });
});
