import { describe, expect, it } from "vitest";
import type { ScenarioResult, SubjectResult } from "./measure";
import { checkTargets, quantile, roundRatios, throughputRatio } from "./targets";

function subject(id: SubjectResult["subject"], throughput: number, roundThroughputs: number[]): SubjectResult {
  return {
    subject: id,
    label: id,
    requests: 100,
    errors: 0,
    errorSamples: [],
    elapsedMs: 1000,
    throughput,
    p50Ms: 1,
    p99Ms: 2,
    meanMs: 1,
    maxMs: 3,
    stoppedByTime: false,
    roundThroughputs,
    cpuMsPerRequest: null,
  };
}

function scenario(id: ScenarioResult["id"], rest: [number, number[]], route: [number, number[]]): ScenarioResult {
  return { id, title: id, description: "", requestsPerRound: 10, subjects: [subject("rest", ...rest), subject("route", ...route)] };
}

describe("bench statistics", () => {
  it("interpolates quantiles between neighbours", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([10], 0.75)).toBe(10);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("pairs rounds by index and sorts their ratios", () => {
    const measured = scenario("cart", [90, [90, 45, 100]], [100, [100, 50, 80]]);
    expect(roundRatios(measured, "rest", "route")).toEqual([0.9, 0.9, 1.25]);
  });

  it("compares throughput over all rounds, not a median of rounds", () => {
    // One round in which REST happened to be fast does not hide that it was slower overall.
    const measured = scenario("cart", [80, [60, 60, 130]], [100, [100, 100, 100]]);
    expect(throughputRatio(measured, "rest", "route")).toBe(0.8);
    expect(throughputRatio(measured, "rest", "node")).toBeNaN();
  });

  it("fails the facade target above 15% overhead and reports the rounds' spread", () => {
    const within = scenario("cart", [90, [88, 90, 92]], [100, [100, 100, 100]]);
    const over = scenario("menus", [80, [80, 80, 80]], [100, [100, 100, 100]]);
    const checks = checkTargets([within, over], undefined);
    const cart = checks.find((check) => check.id === "facade-overhead-cart");
    const menus = checks.find((check) => check.id === "facade-overhead-menus");
    expect(cart?.pass).toBe(true);
    expect(cart?.value).toMatch(/^11\.1% \(single rounds: middle half /);
    expect(menus?.pass).toBe(false);
    expect(menus?.value).toMatch(/^25\.0%/);
  });
});
