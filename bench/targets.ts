import type { ScenarioResult, SubjectResult } from "./measure";
import type { QueryCountReport } from "./query-count";
import type { ScenarioId } from "./scenarios";
import type { SubjectId } from "./subjects";

/**
 * The performance targets of the foundation issue, checked here rather than in timed tests:
 * - add item through the REST facade sustains at least 0.6 of the plain route's throughput;
 * - the facade costs at most 15% over the plain route, per operation: overhead is
 *   route throughput / REST throughput - 1, i.e. the extra time per request at equal concurrency,
 *   taken per round (the two ran back to back) and then the median over rounds, so that one round
 *   disturbed by the shared machine does not decide the result;
 * - statements per request do not grow with the cart (1/20/100 lines) or the menu (seed vs 500);
 * - and, so that the numbers mean something, no measured request failed.
 */
export const ADD_ITEM_MIN_RATIO = 0.6;
export const FACADE_MAX_OVERHEAD = 0.15;

export type TargetCheck = { id: string; description: string; value: string; pass: boolean };

export function findSubject(scenario: ScenarioResult | undefined, subject: SubjectId): SubjectResult | undefined {
  return scenario?.subjects.find((entry) => entry.subject === subject);
}

/**
 * Median over rounds of value-subject throughput / baseline throughput, pairing rounds by index
 * (in each round every subject ran once, back to back). NaN when either was not measured.
 */
export function medianRoundRatio(scenario: ScenarioResult | undefined, subject: SubjectId, baseline: SubjectId): number {
  const values = findSubject(scenario, subject)?.roundThroughputs ?? [];
  const bases = findSubject(scenario, baseline)?.roundThroughputs ?? [];
  const ratios = values.flatMap((value, index) => (bases[index] ? [value / bases[index]] : [])).sort((a, b) => a - b);
  if (ratios.length === 0) return Number.NaN;
  const middle = Math.floor(ratios.length / 2);
  return ratios.length % 2 === 1 ? (ratios[middle] ?? Number.NaN) : ((ratios[middle - 1] ?? Number.NaN) + (ratios[middle] ?? Number.NaN)) / 2;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Checks only what was measured: --only can leave the load scenarios or the statement counts out. */
export function checkTargets(scenarios: ScenarioResult[], queries: QueryCountReport | undefined): TargetCheck[] {
  const checks: TargetCheck[] = [];
  if (scenarios.length > 0) checks.push(...loadTargets(scenarios));
  if (queries) checks.push(...queryTargets(queries));
  return checks;
}

function loadTargets(scenarios: ScenarioResult[]): TargetCheck[] {
  const byId = (id: ScenarioId) => scenarios.find((scenario) => scenario.id === id);
  const checks: TargetCheck[] = [];

  const addItemRatio = medianRoundRatio(byId("add-item"), "rest", "route");
  checks.push({
    id: "add-item-vs-route",
    description: `add item: REST throughput >= ${ADD_ITEM_MIN_RATIO} x plain route`,
    value: addItemRatio.toFixed(2),
    pass: addItemRatio >= ADD_ITEM_MIN_RATIO,
  });

  for (const scenario of scenarios) {
    const overhead = 1 / medianRoundRatio(scenario, "rest", "route") - 1;
    checks.push({
      id: `facade-overhead-${scenario.id}`,
      description: `${scenario.title}: REST facade overhead <= ${percent(FACADE_MAX_OVERHEAD)} over plain route`,
      value: percent(overhead),
      pass: overhead <= FACADE_MAX_OVERHEAD,
    });
  }

  const errors = scenarios.flatMap((scenario) => scenario.subjects).reduce((sum, subject) => sum + subject.errors, 0);
  checks.push({ id: "no-request-errors", description: "every measured request answered its expected status", value: `${errors} errors`, pass: errors === 0 });
  return checks;
}

function queryTargets(queries: QueryCountReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  checks.push({
    id: "queries-menu-size",
    description: "GET menu: statements constant in menu size",
    value: queries.menus.map((entry) => `${entry.productsServed} products: ${entry.queries}`).join(", "),
    pass: queries.constant.menus,
  });
  checks.push({
    id: "queries-add-item-cart-size",
    description: "add item: statements constant in cart size",
    value: queries.carts.map((entry) => `${entry.lines} lines: ${entry.addItem}`).join(", "),
    pass: queries.constant.addItem,
  });
  checks.push({
    id: "queries-get-cart-cart-size",
    description: "GET cart: statements constant in cart size",
    value: queries.carts.map((entry) => `${entry.lines} lines: ${entry.getCart}`).join(", "),
    pass: queries.constant.getCart,
  });

  return checks;
}
