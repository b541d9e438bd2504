import { describe, expect, it } from "vitest";
import { StorefrontError } from "./errors";
import { DEFAULT_POLL_MS, MAX_POLL_MS, MIN_POLL_MS, nextPollDelay, retryDelay } from "./order-polling";

const error = (code: string, status: number | null) => new StorefrontError({ code, message: code, status });

describe("order result polling", () => {
  it("waits as long as the server asks, within bounds, and stops once settled", () => {
    expect(nextPollDelay({ status: "order_pending", pollAfterMs: 2500 })).toBe(2500);
    expect(nextPollDelay({ status: "payment_pending" })).toBe(DEFAULT_POLL_MS);
    expect(nextPollDelay({ status: "payment_pending", pollAfterMs: 0 })).toBe(MIN_POLL_MS);
    expect(nextPollDelay({ status: "payment_pending", pollAfterMs: 3_600_000 })).toBe(MAX_POLL_MS);
    expect(nextPollDelay({ status: "completed", orderId: "ord_1" })).toBeNull();
    expect(nextPollDelay({ status: "failed", failure: { code: "card_declined", message: "declined" } })).toBeNull();
  });

  it("backs off on failures worth retrying and gives up on the others", () => {
    const offline = error("NETWORK_ERROR", null);
    expect([1, 2, 3, 4, 5, 6].map((failures) => retryDelay(offline, failures))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(retryDelay(offline, 7)).toBeNull();
    expect(retryDelay(error("RATE_LIMITED", 429), 1)).toBe(1000);
    expect(retryDelay(error("DEPENDENCY_UNAVAILABLE", 503), 2)).toBe(2000);
    expect(retryDelay(error("UNAUTHORIZED", 401), 1)).toBeNull();
    expect(retryDelay(error("NOT_FOUND", 404), 1)).toBeNull();
  });
});
