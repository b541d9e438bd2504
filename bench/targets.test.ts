import { describe, expect, it } from "vitest";
import type { ScenarioResult, SubjectResult } from "./measure";
import { checkTargets, floorRatios, floorTargets, quantile, roundRatios, throughputRatio } from "./targets";

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

describe("the floor (issue 16)", () => {
  /** Throughputs by subject: REST fast path, REST Next path, K1, K0 (undefined: not measured). */
  const withFloor = (id: ScenarioResult["id"], rest: number | undefined, restNext: number | undefined, floorRoute: number, floorNode: number): ScenarioResult => ({
    id,
    title: id,
    description: "",
    requestsPerRound: 10,
    subjects: (
      [
        ["rest", rest],
        ["rest-next", restNext],
        ["floor-route", floorRoute],
        ["floor-node", floorNode],
      ] as const
    ).flatMap(([key, value]) => (value === undefined ? [] : [subject(key, value, [value, value])])),
  });

  it("divides each REST mount's throughput by each floor's, and K1 by K0", () => {
    expect(floorRatios(withFloor("add-item", 100, 50, 250, 500))).toEqual({
      restOverFloorRoute: 0.4,
      restOverFloorNode: 0.2,
      restNextOverFloorRoute: 0.2,
      restNextOverFloorNode: 0.1,
      floorRouteOverFloorNode: 0.5,
    });
    expect(floorRatios(scenario("cart", [90, [90]], [100, [100]])).restOverFloorRoute).toBeNaN();
    expect(floorRatios(withFloor("cart", 90, undefined, 100, 200)).restNextOverFloorRoute).toBeNaN();
  });

  it("holds the Next path against K1 and the fast path against K0, as issue 16's table does", () => {
    const checks = floorTargets([
      withFloor("add-item", 400, 150, 250, 700),
      withFloor("cart", 90, 90, 100, 200),
      withFloor("ordering-session", 100, 70, 100, 300),
      withFloor("menus-cached", 800, 600, 200, 1_000),
    ]);
    expect(checks.map((check) => [check.id, check.pass, check.informative])).toEqual([
      ["floor-add-item-rest-next-floor-route", false, true], // 150 / 250 = 0.6 < 0.8
      ["floor-add-item-rest-floor-node", true, true], // 400 / 700 = 0.57 >= 0.5
      ["floor-cart-rest-next-floor-route", true, true], // 0.9 >= 0.8
      ["floor-ordering-session-rest-next-floor-route", false, true], // 0.7 < 0.8
      ["floor-menus-cached-rest-floor-node", true, true], // 0.8 >= 0.7
    ]);
    expect(checks[0]?.value).toMatch(/^0\.60 \(single rounds: middle half 0\.60 to 0\.60\)$/);
    expect(checks[0]?.description).toBe("add item: REST Next path >= 0.8 x plain-route floor (K1) [issue 16, informative]");
    expect(checks[4]?.description).toBe("cached menu: REST fast path >= 0.7 x node:http floor (K0) [issue 16, informative]");
  });

  it("reports only the targets whose scenario ran with both the REST mount and the floor", () => {
    const checks = floorTargets([withFloor("add-item", 100, undefined, 250, 150), scenario("ordering-session", [90, [90]], [100, [100]])]);
    expect(checks.map((check) => check.id)).toEqual(["floor-add-item-rest-floor-node"]);
    // Informative: part of checkTargets, but they never count as the run's failures.
    const all = checkTargets([withFloor("add-item", 50, 100, 250, 150)], undefined);
    expect(all.find((check) => check.id === "floor-add-item-rest-next-floor-route")?.informative).toBe(true);
  });

  it("leaves the facade targets out where the plain route did not run (GET menu, cached)", () => {
    const checks = checkTargets([scenario("menus", [90, [90]], [100, [100]]), withFloor("menus-cached", 800, 600, 200, 1_000)], undefined);
    expect(checks.filter((check) => check.id.startsWith("facade-overhead-")).map((check) => check.id)).toEqual(["facade-overhead-menus"]);
    expect(checks.find((check) => check.id === "facade-overhead-menus")?.description).toBe("menus: REST fast path overhead <= 15.0% over plain route");
  });
});
