import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Profile, ScenarioResult } from "./measure";
import type { PhaseReport } from "./phases/types";
import type { QueryCountReport } from "./query-count";
import { findSubject, floorRatios, throughputRatio, type TargetCheck } from "./targets";

export type BenchReport = {
  command: string;
  ranAt: string;
  machine: { cores: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  settings: Profile & { database: string; appServer: string; phases: string[] };
  scenarios: ScenarioResult[];
  /** Absent when --only left the statement-count phase out. */
  queryCounts?: QueryCountReport;
  phases: PhaseReport[];
  targets: TargetCheck[];
  notes: string[];
};

export function machineInfo(): BenchReport["machine"] {
  return {
    cores: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

type Row = string[];

function scenarioRows(scenario: ScenarioResult): Row[] {
  return scenario.subjects.map((subject, index) => [
    index === 0 ? scenario.title : "",
    subject.label,
    String(subject.requests),
    String(subject.errors),
    fixed(subject.throughput, 1),
    fixed(subject.p50Ms, 2),
    fixed(subject.p99Ms, 2),
    subject.cpuMsPerRequest === null ? "-" : fixed(subject.cpuMsPerRequest, 2),
    fixed(throughputRatio(scenario, subject.subject, "route"), 2),
    fixed(throughputRatio(scenario, subject.subject, "node"), 2),
  ]);
}

const cpu = (scenario: ScenarioResult, subject: Parameters<typeof findSubject>[1]) => {
  const value = findSubject(scenario, subject)?.cpuMsPerRequest;
  return value === null || value === undefined ? "-" : fixed(value, 2);
};

/** Per operation: the service against the floor (bench/controls/floor-sql.ts); empty when the floor was not measured. */
function floorRows(scenarios: ScenarioResult[]): Row[] {
  return scenarios
    .filter((scenario) => findSubject(scenario, "floor-node") !== undefined || findSubject(scenario, "floor-route") !== undefined)
    .map((scenario) => {
      const ratios = floorRatios(scenario);
      return [
        scenario.title,
        fixed(ratios.restOverFloorRoute, 2),
        fixed(ratios.restOverFloorNode, 2),
        fixed(ratios.restNextOverFloorRoute, 2),
        fixed(ratios.restNextOverFloorNode, 2),
        fixed(ratios.floorRouteOverFloorNode, 2),
        `${cpu(scenario, "rest")} / ${cpu(scenario, "rest-next")} / ${cpu(scenario, "floor-route")} / ${cpu(scenario, "floor-node")}`,
      ];
    });
}

const FLOOR_HEADER = ["operation", "REST fast / K1", "REST fast / K0", "REST Next / K1", "REST Next / K0", "K1 / K0", "server CPU ms/req REST fast / REST Next / K1 / K0"];

const LOAD_HEADER = ["operation", "subject", "requests", "errors", "req/s", "p50 ms", "p99 ms", "server CPU ms/req", "x route", "x node"];

/** Columns before `leftColumns` are left-aligned (labels), the rest right-aligned (numbers). */
function textTable(header: Row, rows: Row[], leftColumns = 1): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (row: Row) =>
    row
      .map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

function markdownTable(header: Row, rows: Row[]): string {
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

function queryRows(queries: QueryCountReport): { menus: Row[]; carts: Row[] } {
  return {
    menus: queries.menus.map((entry) => [entry.locationId, String(entry.productsServed), String(entry.queries)]),
    carts: queries.carts.map((entry) => [String(entry.lines), String(entry.addItem), String(entry.getCart)]),
  };
}

const targetRows = (targets: TargetCheck[]): Row[] => targets.map((target) => [target.pass ? "PASS" : "FAIL", target.description, target.value]);

function settingsLine(report: BenchReport): string {
  const { settings, machine } = report;
  return (
    `${settings.name} profile: concurrency ${settings.concurrency}, warm-up ${settings.warmupMs} ms, ` +
    `${settings.rounds} round(s) of ~${settings.roundMs} ms per subject; ${machine.cores} cores (${machine.cpuModel}), node ${machine.node}`
  );
}

export function formatText(report: BenchReport): string {
  const queries = report.queryCounts ? queryRows(report.queryCounts) : undefined;
  return [
    settingsLine(report),
    "",
    ...(report.scenarios.length > 0 ? [textTable(LOAD_HEADER, report.scenarios.flatMap(scenarioRows), 2), ""] : []),
    ...(floorRows(report.scenarios).length > 0
      ? ["Against the floor (throughput ratios over all rounds; REST fast = npm start's direct mount, REST Next = REST_MOUNT=next; K1 = floor in the plain route, K0 = floor on node:http)", textTable(FLOOR_HEADER, floorRows(report.scenarios)), ""]
      : []),
    ...(queries && report.queryCounts
      ? [
          `Statements per request (ordering session: ${report.queryCounts.orderingSession})`,
          textTable(["menu location", "products", "GET menu"], queries.menus),
          textTable(["cart lines", "add item", "GET cart"], queries.carts),
          orderLine(report.queryCounts),
          "",
        ]
      : []),
    ...report.phases.flatMap((phase) => [`== ${phase.title}`, ...phase.tables.flatMap((table) => [`${table.title}:`, textTable(table.header, table.rows)]), ""]),
    textTable(["result", "target", "value"], targetRows(report.targets), 3),
  ].join("\n");
}

function phaseMarkdown(phase: PhaseReport): string[] {
  return [`## ${phase.title}`, "", phase.description, "", ...phase.tables.flatMap((table) => [`${table.title}:`, "", markdownTable(table.header, table.rows), ""])];
}

function queryMarkdown(counts: QueryCountReport): string[] {
  const queries = queryRows(counts);
  return [
    "## Statements per request",
    "",
    `Counted at the Postgres driver through the REST handler in-process. Ordering session: ${counts.orderingSession}.`,
    "",
    markdownTable(["menu location", "products", "GET menu"], queries.menus),
    "",
    markdownTable(["cart lines", "add item", "GET cart"], queries.carts),
    "",
    orderLine(counts),
    "",
  ];
}

function orderLine(counts: QueryCountReport): string {
  const { order } = counts;
  return (
    `A guest order, first request to paid (statements/commits/round trips per request: ${order.requests.join(", ")}): ${order.statements} statements, ${order.commits} commits, ${order.roundTrips} round trips; ` +
    `${order.cpuMsPerOrder.toFixed(1)} ms of this process's CPU per order in-process (REST handler and postgres.js, no HTTP; mean of ${order.ordersTimed}).`
  );
}

function loadMarkdown(report: BenchReport): string[] {
  if (report.scenarios.length === 0) return [];
  return [
    "## Throughput and latency",
    "",
    "`REST, fast path`: `npm start` serving /api/v1/storefront from its own node:http server straight into the REST handler (REST_MOUNT=direct); `REST, Next path`: the same build and handler through Next's request pipeline (REST_MOUNT=next, what Vercel runs), in a second app process. `x route` / `x node`: throughput relative to the plain Next.js route and to the bare node:http control, which run the same service calls: `req/s` of each is requests answered over time taken, summed over all rounds (in a round every subject ran once, back to back, the order rotating). `server CPU ms/req`: user + system CPU time of the serving process group per request (the REST fast path, the plain route and K1 share one process; the Next path has its own; node:http and K0 share the control's), summed over all rounds: it does not count time spent waiting for the CPU, but it still varies with the shared machine's speed (seen here: 3.2 to 5.0 ms for the same GET cart minutes apart), so it is informative, not a target.",
    "",
    markdownTable(LOAD_HEADER, report.scenarios.flatMap(scenarioRows)),
    "",
    ...report.scenarios.map((scenario) => `- **${scenario.title}**: ${scenario.description}`),
    "",
    ...(floorRows(report.scenarios).length > 0
      ? [
          "## Against the floor",
          "",
          "The same operations as bare SQL over postgres.js on the service's tables, no service code (`bench/controls/floor-sql.ts`): K1 in the plain Next.js route, K0 on bare node:http. `REST Next / K1` is what everything above the SQL costs on the Next path, `REST fast / K0` the same on the fast path against a server with no framework; `K1 / K0` is what Next.js costs the floor itself. GET menu (cached): the service answers from its response cache, the floor reads the database. Ratios of throughput summed over all rounds; CPU as above.",
          "",
          markdownTable(FLOOR_HEADER, floorRows(report.scenarios)),
          "",
        ]
      : []),
  ];
}

export function formatMarkdown(report: BenchReport): string {
  return [
    "# Benchmark results",
    "",
    `Produced by \`${report.command}\` at ${report.ranAt}. ${settingsLine(report)}. Phases: ${report.settings.phases.join(", ")}.`,
    "",
    ...loadMarkdown(report),
    ...(report.queryCounts ? queryMarkdown(report.queryCounts) : []),
    ...report.phases.flatMap(phaseMarkdown),
    "## Targets",
    "",
    markdownTable(["result", "target", "value"], targetRows(report.targets)),
    "",
    "## Notes",
    "",
    ...report.notes.map((note) => `- ${note}`),
    "",
  ].join("\n");
}

/** Writes latest.json and latest.md atomically (temporary file, then rename). */
export function writeResults(directory: string, report: BenchReport): string[] {
  mkdirSync(directory, { recursive: true });
  const files: [string, string][] = [
    ["latest.json", `${JSON.stringify(report, null, 2)}\n`],
    ["latest.md", formatMarkdown(report)],
  ];
  return files.map(([name, content]) => {
    const target = path.join(directory, name);
    writeFileSync(`${target}.tmp`, content);
    renameSync(`${target}.tmp`, target);
    return target;
  });
}
