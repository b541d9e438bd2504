import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { serviceClock } from "./test-clock";

const TEST_CLOCK = Symbol.for("storefront-ordering-service.test-clock");
const registry = globalThis as Record<symbol, unknown>;

afterEach(() => {
  delete registry[TEST_CLOCK];
});

describe("the test clock of the production-build tests", () => {
  it("is ignored unless TEST_CLOCK_CONTROL is on, even when a server published a request's time", () => {
    const storage = new AsyncLocalStorage<string>();
    registry[TEST_CLOCK] = storage;
    storage.run("2001-02-03T04:05:06.000Z", () => {
      expect(serviceClock(true)().toISOString()).toBe("2001-02-03T04:05:06.000Z");
      expect(Math.abs(serviceClock(false)().getTime() - Date.now())).toBeLessThan(5_000);
    });
  });

  it("falls back to the system clock without a published storage, a header, or with an unreadable time", () => {
    expect(Math.abs(serviceClock(true)().getTime() - Date.now())).toBeLessThan(5_000);
    const storage = new AsyncLocalStorage<string>();
    registry[TEST_CLOCK] = storage;
    expect(Math.abs(serviceClock(true)().getTime() - Date.now())).toBeLessThan(5_000);
    storage.run("not a date", () => expect(Math.abs(serviceClock(true)().getTime() - Date.now())).toBeLessThan(5_000));
  });

  it("is refused on Vercel", () => {
    expect(() => parseEnv({ VERCEL: "1", DATABASE_URL: "postgres://db.example/app", TEST_CLOCK_CONTROL: "true" })).toThrow(/TEST_CLOCK_CONTROL: must not be enabled in a deployment/);
    expect(parseEnv({ TEST_CLOCK_CONTROL: "true" }).warnings.join("\n")).toMatch(/TEST_CLOCK_CONTROL is on/);
  });
});
