/**
 * `npm run bench [-- --quick] [-- --strict] [-- --concurrency=N] [-- --only=phase,...] [-- --no-build]`
 *
 * Starts the production build against a fresh `storefront_bench` database and measures GET menu,
 * ordering session, add item and GET cart through the REST facade on both of its mounts (the fast
 * path of `npm start`, and the Next path in a second app process started with REST_MOUNT=next),
 * through two controls that
 * make the same service calls without it (bench/controls): a plain Next.js route in the same app,
 * and a bare node:http server, and through the floor: the same operations as bare SQL over
 * postgres.js in both (bench/controls/floor-sql.ts). Prints throughput, p50/p99 and ratios, the statements per request
 * at several cart and menu sizes, and PASS/FAIL per target (bench/targets.ts); writes the same to
 * bench/results/latest.{json,md}. Exits non-zero on a FAIL only with --strict.
 */
import "./production-process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { BENCH_DATABASE, createBenchDatabase, dropBenchDatabase, LARGE_MENU_LOCATION, MENU_SCALING_LOCATIONS } from "./database";
import { HttpClient } from "./load";
import { measureScenario, PROFILES, type Profile, type ScenarioResult } from "./measure";
import { freePort, runToCompletion, startChild, stopAll, waitUntilReady, type Child } from "./processes";
import { measureQueryCounts, type QueryCountReport } from "./query-count";
import { measureCartScaling } from "./phases/cart-scaling";
import { measureConcurrency } from "./phases/concurrency";
import { measureMenuScaling } from "./phases/menu-scaling";
import { measurePlans } from "./phases/plans";
import { measureReplay } from "./phases/replay";
import { PHASE_IDS, type PhaseId, type PhaseReport } from "./phases/types";
import { formatText, machineInfo, writeResults, type BenchReport } from "./report";
import { scenarios } from "./scenarios";
import { BENCH_LOCATION_ID } from "./scenarios/common";
import { APP_POOL_MAX, serviceEnv } from "./service-env";
import { subjects, type Subject, type SubjectId } from "./subjects";
import { checkTargets } from "./targets";

const ROOT = process.cwd();
const READY_TIMEOUT_MS = 90_000;
/** Phases that need the production server (the others run in-process against the bench database). */
const HTTP_PHASES: PhaseId[] = ["load", "concurrency"];
/** Rows bulk-inserted per table by the plans phase. */
const PLANS_ROWS = 100_000;

type Options = { profile: Profile; strict: boolean; phases: PhaseId[]; build: boolean };

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

const isPhase = (value: string): value is PhaseId => (PHASE_IDS as readonly string[]).includes(value);

function parseArgs(argv: string[]): Options {
  let quick = false;
  let strict = false;
  let build = true;
  let concurrency = 8;
  let phases: PhaseId[] = [...PHASE_IDS];
  for (const arg of argv) {
    if (arg === "--quick") quick = true;
    else if (arg === "--strict") strict = true;
    else if (arg === "--no-build") build = false;
    else if (arg.startsWith("--concurrency=")) concurrency = Number(arg.slice("--concurrency=".length));
    else if (arg.startsWith("--only=")) {
      const names = arg.slice("--only=".length).split(",").filter((name) => name !== "");
      const unknown = names.filter((name) => !isPhase(name));
      if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes phases among ${PHASE_IDS.join(", ")}; got ${arg}`);
      phases = PHASE_IDS.filter((phase) => names.includes(phase));
    } else throw new Error(`unknown argument ${arg} (expected --quick, --strict, --concurrency=N, --only=${PHASE_IDS.join(",")}, --no-build)`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error("--concurrency must be an integer 1..64");
  return { profile: { ...PROFILES[quick ? "quick" : "full"], concurrency }, strict, phases, build };
}

/**
 * The production build must exist and include the plain-route control; build it otherwise, or with
 * --no-build answer false (the HTTP phases are then skipped).
 */
async function ensureBuild(allowBuild: boolean): Promise<boolean> {
  const manifest = path.join(ROOT, ".next/server/app-paths-manifest.json");
  const hasBuild = existsSync(path.join(ROOT, ".next/BUILD_ID"));
  const hasControl = hasBuild && existsSync(manifest) && readFileSync(manifest, "utf8").includes("/api/bench/[operation]/route");
  if (hasBuild && hasControl) {
    progress("using the existing production build (.next); delete .next/BUILD_ID to rebuild");
    return true;
  }
  if (!allowBuild) {
    progress("the production build is missing or predates the bench control route; --no-build: skipping the HTTP phases");
    return false;
  }
  progress(hasBuild ? "the build predates the bench control route: running next build" : "no production build: running next build (about a minute)");
  await runToCompletion("next build", "npx", ["next", "build"], process.env);
  return true;
}

async function answers(subject: Subject, expect: number): Promise<boolean> {
  const http = new HttpClient(subject.baseUrl, 1);
  try {
    const response = await http.send({ method: "GET", path: subject.paths.menus(BENCH_LOCATION_ID), expectStatus: expect });
    return response.status === expect;
  } finally {
    http.close();
  }
}

type Servers = { subjects: Subject[]; app: Child; appNext: Child; control: Child };

/**
 * Three servers, each on its own free port and in its own process group (so each subject's CPU is read
 * from its own server): the app with the REST fast path (REST_MOUNT=direct, set explicitly so that a
 * REST_MOUNT in the bench's environment cannot change it) and the bench control routes; the same
 * build with REST_MOUNT=next, serving the REST API through Next's pipeline and nothing else measured;
 * and the node:http control.
 */
async function startServers(databaseUrl: string): Promise<Servers> {
  const [appPort, appNextPort, nodePort] = [await freePort(), await freePort(), await freePort()];
  const app = startChild("app, REST fast path (node scripts/serve.mjs)", process.execPath, ["scripts/serve.mjs"], {
    ...serviceEnv(databaseUrl, appPort),
    REST_MOUNT: "direct",
    BENCH_CONTROL_ROUTES: "true",
  });
  const appNext = startChild("app, REST Next path (REST_MOUNT=next node scripts/serve.mjs)", process.execPath, ["scripts/serve.mjs"], { ...serviceEnv(databaseUrl, appNextPort), REST_MOUNT: "next" });
  const control = startChild("node:http control", process.execPath, ["--import", "tsx", "bench/controls/node-server.ts"], serviceEnv(databaseUrl, nodePort));
  const list = subjects({
    app: { baseUrl: `http://127.0.0.1:${appPort}`, processGroup: app.process.pid },
    appNext: { baseUrl: `http://127.0.0.1:${appNextPort}`, processGroup: appNext.process.pid },
    nodeControl: { baseUrl: `http://127.0.0.1:${nodePort}`, processGroup: control.process.pid },
  });
  return { subjects: list, app, appNext, control };
}

function subjectById(list: Subject[], id: SubjectId): Subject {
  const subject = list.find((entry) => entry.id === id);
  if (!subject) throw new Error(`no subject ${id}`);
  return subject;
}

async function waitForServers({ subjects: list, app, appNext, control }: Servers): Promise<void> {
  const subject = (id: SubjectId) => subjectById(list, id);
  const [rest, restNext, node] = [subject("rest"), subject("rest-next"), subject("node")];
  await Promise.all([
    waitUntilReady(app, () => answers(rest, 200), READY_TIMEOUT_MS),
    waitUntilReady(appNext, () => answers(restNext, 200), READY_TIMEOUT_MS),
    waitUntilReady(control, () => answers(node, 200), READY_TIMEOUT_MS),
  ]);
  if (!(await answers(subject("route"), 200)) || !(await answers(subject("floor-route"), 200))) {
    throw new Error("the plain-route control (/api/bench, floor-*) does not answer 200: is BENCH_CONTROL_ROUTES honoured and is the build current? (rm .next/BUILD_ID to rebuild)");
  }
  if (!(await answers(subject("floor-node"), 200))) throw new Error("the node:http floor (/api/bench/floor-menus) does not answer 200");
}

async function main(): Promise<number> {
  const { profile, strict, build, phases: requested } = parseArgs(process.argv.slice(2));
  let phases = requested;
  if (!existsSync(path.join(ROOT, "scripts/serve.mjs"))) throw new Error("run from the repository root (npm run bench)");
  progress(`${profile.name} profile, concurrency ${profile.concurrency}, phases: ${phases.join(", ")}`);
  if (phases.some((phase) => HTTP_PHASES.includes(phase)) && !(await ensureBuild(build))) phases = phases.filter((phase) => !HTTP_PHASES.includes(phase));
  const runs = (phase: PhaseId) => phases.includes(phase);

  progress(`creating database ${BENCH_DATABASE} (migrate, seed, bench menu locations of ${MENU_SCALING_LOCATIONS.map((location) => location.productCount).join("/")} products)`);
  const databaseUrl = await createBenchDatabase();

  let queryCounts: QueryCountReport | undefined;
  if (runs("queries")) {
    progress("counting statements per request in-process (cart 1/20/100 lines, seed vs large menu)");
    queryCounts = await measureQueryCounts(databaseUrl, { seeded: BENCH_LOCATION_ID, large: LARGE_MENU_LOCATION.id });
  }
  const phaseReports: PhaseReport[] = [];
  const samples = profile.name === "quick" ? 25 : 60;
  if (runs("scaling")) {
    // More than the other in-process phases: its target is a ratio of two p50s close to each other.
    const cartSamples = profile.name === "quick" ? 60 : 240;
    progress(`cart size 1 -> 20 -> 100 lines (${cartSamples} adds per size, in-process, the sizes in turns)`);
    phaseReports.push(await measureCartScaling(databaseUrl, BENCH_LOCATION_ID, cartSamples));
  }
  if (runs("menu")) {
    progress(`menu size ${MENU_SCALING_LOCATIONS.map((location) => location.productCount).join(" -> ")} products (in-process)`);
    phaseReports.push(await measureMenuScaling(databaseUrl, MENU_SCALING_LOCATIONS, samples));
  }
  if (runs("replay")) {
    progress(`idempotent replay (${samples * 2} pairs, in-process)`);
    phaseReports.push(await measureReplay(databaseUrl, BENCH_LOCATION_ID, samples * 2));
  }

  // Started after the timed in-process phases, so that the servers' boot does not share their CPU.
  const needsServers = phases.some((phase) => HTTP_PHASES.includes(phase));
  if (needsServers) progress(`starting the app twice (npm start, DATABASE_POOL_MAX=${APP_POOL_MAX}: REST fast path, and REST_MOUNT=next) and the node:http control`);
  const servers = needsServers ? await startServers(databaseUrl) : undefined;
  const results: ScenarioResult[] = [];
  if (servers) {
    progress("waiting for the three servers to answer");
    await waitForServers(servers);
    if (runs("load")) {
      for (const scenario of scenarios) {
        const measured = servers.subjects.filter((subject) => !scenario.subjects || scenario.subjects.includes(subject.id));
        progress(`measuring ${scenario.title} (warm-up, then ${profile.rounds} round(s) per subject; ${measured.map((subject) => subject.id).join(", ")})`);
        results.push(await measureScenario(scenario, measured, profile, BENCH_LOCATION_ID, progress));
      }
    }
    if (runs("concurrency")) {
      progress("50 concurrent clients (one cart; distinct carts vs plain route)");
      phaseReports.push(await measureConcurrency(servers.subjects, BENCH_LOCATION_ID, profile, APP_POOL_MAX, progress));
    }
  }
  // Last: it makes the database large, which the timed phases above should not measure.
  if (runs("plans")) {
    progress(`bulk-inserting ${PLANS_ROWS} carts and orders, then EXPLAIN of the hot-path queries`);
    phaseReports.push(await measurePlans(databaseUrl, BENCH_LOCATION_ID, PLANS_ROWS));
  }

  const targets = [...checkTargets(results, queryCounts), ...phaseReports.flatMap((phase) => phase.targets)];
  const report: BenchReport = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    ranAt: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...profile, database: `Postgres 127.0.0.1:5432/${BENCH_DATABASE}`, appServer: `node scripts/serve.mjs (npm start), NODE_ENV=production, DATABASE_POOL_MAX=${APP_POOL_MAX}; twice: REST_MOUNT=direct (REST fast path, plain route, K1) and REST_MOUNT=next (REST Next path)`, phases },
    scenarios: results,
    queryCounts,
    phases: phaseReports,
    targets,
    notes: [
      "Closed loop: each virtual client sends its next request when the previous one completed, over keep-alive connections; the load generator runs on the same machine.",
      "Every subject of a scenario gets the same request count per round (what the slowest did in its warm-up over the round's duration, at least 8 per client); subjects rotate order each round.",
      "Two app processes of the same build: `REST, fast path` is npm start's direct mount (its node:http server hands /api/v1/storefront straight to the REST handler, REST_MOUNT=direct) and shares its process with the plain route and K1; `REST, Next path` is the same handler through Next's request pipeline (REST_MOUNT=next, what Vercel runs), alone in its process.",
      "The controls call the same service functions with a minimal RequestContext and answer JSON: no tRPC, trpc-to-openapi, validation, rate limit or envelope.",
      "The floor subjects (K1: plain route, K0: node:http) do each operation as its minimal SQL over postgres.js on the service's tables (bench/controls/floor-sql.ts): no Drizzle, tRPC, zod or service code. Issue 16's targets against them are informative: reported PASS/FAIL, never the exit code. GET menu (cached) reads the menu without no-cache: the REST facade answers from its response cache, the floor reads the database (issue 16's cached-menu target).",
      "Rate limiter: in-memory (RATE_LIMIT_MAX=100000000), so its cost is included without a network hop.",
      "Facade overhead = plain-route throughput / REST fast-path throughput - 1, each summed over all rounds; the spread shown is that of single rounds. Server CPU per request is informative.",
      `The app server runs with DATABASE_POOL_MAX=${APP_POOL_MAX} (default 10) so that 50 clients do not queue on the pool; DATABASE_QUEUE_TIMEOUT_MS stays at its default.`,
      "In-process phases (scaling, menu, replay) call the REST handler directly over one counting Postgres connection: latency there excludes HTTP and Next.js.",
    ],
  };

  process.stdout.write(`${formatText(report)}\n`);
  for (const scenario of results) {
    for (const subject of scenario.subjects) {
      if (subject.errorSamples.length > 0) progress(`errors in ${scenario.title} / ${subject.label}: ${subject.errorSamples.join(" | ")}`);
      if (subject.stoppedByTime) progress(`${scenario.title} / ${subject.label} hit the time bound before its request count`);
    }
  }
  const written = writeResults(path.join(ROOT, "bench/results"), report);
  progress(`wrote ${written.map((file) => path.relative(ROOT, file)).join(", ")}`);

  const failed = targets.filter((target) => !target.pass && !target.informative);
  const informativeFails = targets.filter((target) => !target.pass && target.informative);
  if (failed.length > 0) progress(`${failed.length} target(s) failed${strict ? "" : " (exit code 0 without --strict)"}`);
  if (informativeFails.length > 0) progress(`${informativeFails.length} informative floor target(s) of issue 16 FAIL (never the exit code)`);
  return strict && failed.length > 0 ? 1 : 0;
}

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAll();
    await dropBenchDatabase().catch((error: unknown) => progress(`could not drop ${BENCH_DATABASE}: ${error instanceof Error ? error.message : String(error)}`));
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await cleanup();
    process.exit(1);
  });
