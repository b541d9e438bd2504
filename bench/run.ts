/**
 * `npm run bench [-- --quick] [-- --strict] [-- --concurrency=N]`
 *
 * Starts the production build against a fresh `storefront_bench` database and measures GET menu,
 * ordering session, add item and GET cart through the REST facade and through two controls that
 * make the same service calls without it (bench/controls): a plain Next.js route in the same app,
 * and a bare node:http server. Prints throughput, p50/p99 and ratios, the statements per request
 * at several cart and menu sizes, and PASS/FAIL per target (bench/targets.ts); writes the same to
 * bench/results/latest.{json,md}. Exits non-zero on a FAIL only with --strict.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { BENCH_DATABASE, createBenchDatabase, dropBenchDatabase, LARGE_MENU_LOCATION } from "./database";
import { HttpClient } from "./load";
import { measureScenario, PROFILES, type Profile, type ScenarioResult } from "./measure";
import { freePort, runToCompletion, startChild, stopAll, waitUntilReady, type Child } from "./processes";
import { measureQueryCounts } from "./query-count";
import { formatText, machineInfo, writeResults, type BenchReport } from "./report";
import { scenarios } from "./scenarios";
import { BENCH_LOCATION_ID } from "./scenarios/common";
import { subjects, type Subject } from "./subjects";
import { checkTargets } from "./targets";

const ROOT = process.cwd();
const READY_TIMEOUT_MS = 90_000;

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function parseArgs(argv: string[]): { profile: Profile; strict: boolean } {
  let quick = false;
  let strict = false;
  let concurrency = 8;
  for (const arg of argv) {
    if (arg === "--quick") quick = true;
    else if (arg === "--strict") strict = true;
    else if (arg.startsWith("--concurrency=")) concurrency = Number(arg.slice("--concurrency=".length));
    else throw new Error(`unknown argument ${arg} (expected --quick, --strict, --concurrency=N)`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error("--concurrency must be an integer 1..64");
  return { profile: { ...PROFILES[quick ? "quick" : "full"], concurrency }, strict };
}

/** The production build must exist and include the plain-route control; build it otherwise. */
async function ensureBuild(): Promise<void> {
  const manifest = path.join(ROOT, ".next/server/app-paths-manifest.json");
  const hasBuild = existsSync(path.join(ROOT, ".next/BUILD_ID"));
  const hasControl = hasBuild && existsSync(manifest) && readFileSync(manifest, "utf8").includes("/api/bench/[operation]/route");
  if (hasBuild && hasControl) {
    progress("using the existing production build (.next); delete .next/BUILD_ID to rebuild");
    return;
  }
  progress(hasBuild ? "the build predates the bench control route: running next build" : "no production build: running next build (about a minute)");
  await runToCompletion("next build", "npx", ["next", "build"], process.env);
}

/** The app's environment: in-memory rate limiter (no Redis configured), logs only for problems. */
function serviceEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "KV_REST_API_URL", "KV_REST_API_TOKEN", "VERCEL", "VERCEL_ENV"]) delete env[name];
  return {
    ...env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: "100000000",
    CLIENT_IP_SOURCE: "socket",
    LOG_LEVEL: "warn",
    HOSTNAME: "127.0.0.1",
    PORT: String(port),
  };
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

async function startServers(databaseUrl: string): Promise<{ subjects: Subject[]; children: Child[] }> {
  const [appPort, nodePort] = [await freePort(), await freePort()];
  const app = startChild("app (node scripts/serve.mjs)", process.execPath, ["scripts/serve.mjs"], { ...serviceEnv(databaseUrl, appPort), BENCH_CONTROL_ROUTES: "true" });
  const control = startChild("node:http control", process.execPath, ["--import", "tsx", "bench/controls/node-server.ts"], serviceEnv(databaseUrl, nodePort));
  const list = subjects(`http://127.0.0.1:${appPort}`, `http://127.0.0.1:${nodePort}`);
  return { subjects: list, children: [app, control] };
}

async function waitForServers(list: Subject[], children: Child[]): Promise<void> {
  const [rest, route, node] = list;
  const [app, control] = children;
  if (!rest || !route || !node || !app || !control) throw new Error("unexpected subject list");
  await Promise.all([waitUntilReady(app, () => answers(rest, 200), READY_TIMEOUT_MS), waitUntilReady(control, () => answers(node, 200), READY_TIMEOUT_MS)]);
  if (!(await answers(route, 200))) {
    throw new Error("the plain-route control (/api/bench) does not answer 200: is BENCH_CONTROL_ROUTES honoured and is the build current? (rm .next/BUILD_ID to rebuild)");
  }
}

async function main(): Promise<number> {
  const { profile, strict } = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(ROOT, "scripts/serve.mjs"))) throw new Error("run from the repository root (npm run bench)");
  progress(`${profile.name} profile, concurrency ${profile.concurrency}`);
  await ensureBuild();

  progress(`creating database ${BENCH_DATABASE} (migrate, seed, ${LARGE_MENU_LOCATION.productCount}-product bench location)`);
  const databaseUrl = await createBenchDatabase();

  progress("starting the app (npm start) and the node:http control");
  const servers = await startServers(databaseUrl);

  progress("counting statements per request in-process (cart 1/20/100 lines, seed vs large menu)");
  const queryCounts = await measureQueryCounts(databaseUrl, { seeded: BENCH_LOCATION_ID, large: LARGE_MENU_LOCATION.id });

  progress("waiting for both servers to answer");
  await waitForServers(servers.subjects, servers.children);

  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    progress(`measuring ${scenario.title} (warm-up, then ${profile.rounds} round(s) per subject)`);
    results.push(await measureScenario(scenario, servers.subjects, profile, BENCH_LOCATION_ID, progress));
  }

  const targets = checkTargets(results, queryCounts);
  const report: BenchReport = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    ranAt: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...profile, database: `Postgres 127.0.0.1:5432/${BENCH_DATABASE}`, appServer: "node scripts/serve.mjs (npm start), NODE_ENV=production" },
    scenarios: results,
    queryCounts,
    targets,
    notes: [
      "Closed loop: each virtual client sends its next request when the previous one completed, over keep-alive connections; the load generator runs on the same machine.",
      "Every subject of a scenario gets the same request count per round (what the slowest did in its warm-up over the round's duration); subjects rotate order each round.",
      "The controls call the same service functions with a minimal RequestContext and answer JSON: no tRPC, trpc-to-openapi, validation, rate limit or envelope.",
      "Rate limiter: in-memory (RATE_LIMIT_MAX=100000000), so its cost is included without a network hop.",
      "Facade overhead = plain-route throughput / REST throughput - 1.",
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

  const failed = targets.filter((target) => !target.pass);
  if (failed.length > 0) progress(`${failed.length} target(s) failed${strict ? "" : " (exit code 0 without --strict)"}`);
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
