/**
 * `npm run bench:ab -- [--b-env=NAME=VALUE ...] [--b-node=--flag ...] [--rounds=N] [--scenarios=ordering-session,add-item]`
 *
 * A quick A/B of one setting through Next (about a minute): two servers of the same production build
 * with REST_MOUNT=next, B started with the given environment and node flags, and the floor K1 (in a
 * third, direct-mount server), measured in interleaved rounds as `npm run bench` measures them. A
 * code change is compared by reading a switch from B's environment for the experiment. Two servers
 * of the same code read 0.94-1.02 of each other in one run (bench/README.md, twenty-third session):
 * a smaller difference needs `npm run bench`, run more than once.
 */
import "./production-process";
import { createBenchDatabase, dropBenchDatabase } from "./database";
import { HttpClient } from "./load";
import { measureScenario, PROFILES, type Profile } from "./measure";
import { freePort, startChild, stopAll, waitUntilReady } from "./processes";
import { scenarios, type ScenarioId } from "./scenarios";
import { BENCH_LOCATION_ID } from "./scenarios/common";
import { serviceEnv } from "./service-env";
import { subjects, type Subject } from "./subjects";

type Options = { bEnv: Record<string, string>; bNode: string[]; rounds: number; scenarios: ScenarioId[] };

function parseArgs(argv: string[]): Options {
  const options: Options = { bEnv: {}, bNode: [], rounds: 20, scenarios: ["ordering-session", "add-item"] };
  for (const arg of argv) {
    const [name = "", ...rest] = arg.replace(/^--/, "").split("=");
    const value = rest.join("=");
    if (name === "b-env" && value.includes("=")) options.bEnv[value.slice(0, value.indexOf("="))] = value.slice(value.indexOf("=") + 1);
    else if (name === "b-node" && value !== "") options.bNode.push(value);
    else if (name === "rounds" && Number.isInteger(Number(value)) && Number(value) > 0) options.rounds = Number(value);
    else if (name === "scenarios") options.scenarios = value.split(",").filter((id): id is ScenarioId => scenarios.some((scenario) => scenario.id === id));
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

const progress = (message: string) => process.stderr.write(`[ab] ${message}\n`);

async function answers(baseUrl: string): Promise<boolean> {
  const http = new HttpClient(baseUrl, 1);
  try {
    return (await http.send({ method: "GET", path: `/api/v1/storefront/locations/${BENCH_LOCATION_ID}/menus`, expectStatus: 200 })).status === 200;
  } finally {
    http.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  progress("creating the bench database");
  const databaseUrl = await createBenchDatabase();
  const [portA, portB, portK] = [await freePort(), await freePort(), await freePort()];
  const a = startChild("A", process.execPath, ["scripts/serve.mjs"], { ...serviceEnv(databaseUrl, portA), REST_MOUNT: "next" });
  const b = startChild("B", process.execPath, [...options.bNode, "scripts/serve.mjs"], { ...serviceEnv(databaseUrl, portB), REST_MOUNT: "next", ...options.bEnv });
  const k = startChild("K1", process.execPath, ["scripts/serve.mjs"], { ...serviceEnv(databaseUrl, portK), REST_MOUNT: "direct", BENCH_CONTROL_ROUTES: "true" });
  const url = (port: number) => `http://127.0.0.1:${port}`;
  await Promise.all([waitUntilReady(a, () => answers(url(portA)), 90_000), waitUntilReady(b, () => answers(url(portB)), 90_000), waitUntilReady(k, () => answers(url(portK)), 90_000)]);
  const all = subjects({ app: { baseUrl: url(portK), processGroup: k.process.pid }, appNext: { baseUrl: url(portA), processGroup: a.process.pid }, nodeControl: { baseUrl: url(portK) } });
  const restNext = all.find((subject) => subject.id === "rest-next");
  const floorRoute = all.find((subject) => subject.id === "floor-route");
  if (!restNext || !floorRoute) throw new Error("subjects missing");
  // B reuses the fast path's id only to be told apart in the results; it is a second Next-path server.
  const measured: Subject[] = [{ ...restNext, label: "A" }, { ...restNext, id: "rest", label: "B", baseUrl: url(portB), processGroup: b.process.pid }, floorRoute];
  const profile: Profile = { ...PROFILES.full, warmupMs: 3_000, rounds: options.rounds, concurrency: 16 };
  progress(`B: ${JSON.stringify({ env: options.bEnv, node: options.bNode })}; ${options.rounds} rounds per scenario`);
  for (const scenario of scenarios.filter((entry) => options.scenarios.includes(entry.id))) {
    const result = await measureScenario(scenario, measured, profile, BENCH_LOCATION_ID, progress);
    const [resultA, resultB, resultK] = result.subjects;
    if (!resultA || !resultB || !resultK) throw new Error("a subject was not measured");
    const perRound = resultA.roundThroughputs.map((throughput, round) => (resultB.roundThroughputs[round] ?? Number.NaN) / throughput);
    process.stdout.write(
      `${scenario.id}: A ${resultA.throughput} req/s (${resultA.cpuMsPerRequest} ms CPU), B ${resultB.throughput} (${resultB.cpuMsPerRequest}), K1 ${resultK.throughput}; ` +
        `A/K1 ${(resultA.throughput / resultK.throughput).toFixed(3)}, B/K1 ${(resultB.throughput / resultK.throughput).toFixed(3)}, B/A ${(resultB.throughput / resultA.throughput).toFixed(3)} (median of rounds ${median(perRound).toFixed(3)})\n`,
    );
  }
}

main()
  .then(async () => {
    await stopAll();
    await dropBenchDatabase();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await stopAll();
    process.exit(1);
  });
