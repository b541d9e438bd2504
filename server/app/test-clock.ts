/**
 * The time a request sees in the tests of the production build. scripts/serve.mjs, started with
 * TEST_CLOCK_CONTROL=true, runs each request inside an AsyncLocalStorage holding the value of its
 * X-Test-Clock header, and publishes that storage under this registered symbol (a symbol, not an
 * import, because the script and the bundle's chunks share no module). Without that flag nothing
 * is published and the service runs on the system clock.
 */
const TEST_CLOCK = Symbol.for("storefront-ordering-service.test-clock");

type ClockStorage = { getStore(): unknown };

/** The request's X-Test-Clock as a Date, when the running server honours it and the request sent a valid one. */
export function requestTestClock(): Date | undefined {
  const storage = (globalThis as Record<symbol, ClockStorage | undefined>)[TEST_CLOCK];
  const value = storage?.getStore();
  if (typeof value !== "string") return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The service's clock: the system clock, or with TEST_CLOCK_CONTROL the request's test clock when it sent one. */
export function serviceClock(testClockControl: boolean): () => Date {
  return testClockControl ? () => requestTestClock() ?? new Date() : () => new Date();
}
