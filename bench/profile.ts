/**
 * `npm run bench:profile [-- --requests=N] [-- --operation=add-item|ordering-session|get-cart|replay] [-- --lines=N] [-- --save=file.cpuprofile] [-- --cpu-only] [-- --alloc]`
 *
 * Where one operation's CPU goes: the real REST handler in-process (NODE_ENV=production) over one
 * Postgres connection, warmed up, then N requests under V8's sampling profiler (node:inspector).
 * Prints self time grouped by who owns the code (a package, our own folders, Node, GC), then the
 * heaviest functions. Load it into Chrome DevTools with --save for the call tree. `--lines=N`: add item
 * to a cart of N lines, each add merging into one of them (what grows with the cart). It measures
 * CPU only: the requests run one after another, so the database wait shows as idle. `--cpu-only`: no
 * profiler, just the process's CPU time per request (user + system), for comparing two versions.
 * `replay`: one add item, then the same request (key, If-Match, body) again and again: each answers the stored outcome.
 * `--alloc`: instead of CPU, what the requests allocate (V8's sampling heap profiler, objects that died
 * young included), per request, grouped by the nearest function of ours on the stack: allocation is what
 * the garbage collector then pays for, and what pushes the next request's data out of the caches.
 */
import "./production-process";
import { writeFileSync } from "node:fs";
import { Session, type HeapProfiler, type Profiler, type Runtime } from "node:inspector/promises";
import { createBenchDatabase, dropBenchDatabase } from "./database";
import { openInProcessApp } from "./query-count";
import { openCart } from "./phases/cart-session";
import { BENCH_LOCATION_ID, idempotencyKey } from "./scenarios/common";

type Options = { requests: number; operation: "add-item" | "ordering-session" | "get-cart" | "replay"; lines: number; save?: string | undefined; cpuOnly: boolean; alloc: boolean };

function parseArgs(argv: string[]): Options {
  const options: Options = { requests: 1_500, operation: "add-item", lines: 0, cpuOnly: false, alloc: false };
  for (const arg of argv) {
    const [name, value = ""] = arg.replace(/^--/, "").split("=");
    if (name === "requests") options.requests = Number(value);
    else if (name === "operation" && (value === "add-item" || value === "ordering-session" || value === "get-cart" || value === "replay")) options.operation = value;
    else if (name === "save") options.save = value;
    else if (name === "lines") options.lines = Number(value);
    else if (name === "cpu-only" && value === "") options.cpuOnly = true;
    else if (name === "alloc" && value === "") options.alloc = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.requests) || options.requests < 1) throw new Error("--requests must be a positive integer");
  return options;
}

const progress = (message: string) => process.stderr.write(`[profile] ${message}\n`);

/** Who owns a function: an npm package, one of our top-level folders, Node itself, or V8's own entries. */
function owner(node: Profiler.ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName === "(garbage collector)" ? "(gc)" : functionName === "(idle)" || functionName === "(program)" ? functionName : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith("node:")) return "node:internal";
  const own = /\/(server|db|bench|app)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

/** The `limit` heaviest entries as table rows: name, amount per request, share of `total`; names starting with `skip` left out. */
function heaviestRows(entries: Map<string, number>, limit: number, { total, perRequest, skip }: { total: number; perRequest: (amount: number) => string; skip?: string }): string[] {
  return [...entries]
    .filter(([name]) => skip === undefined || !name.startsWith(skip))
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, amount]) => `| ${name} | ${perRequest(amount)} | ${((amount / total) * 100).toFixed(1)}% |`);
}

/** A headline, then each table in Markdown. */
function report(headline: string, tables: { columns: string[]; rows: string[] }[]): string {
  const lines = [headline];
  for (const { columns, rows } of tables) lines.push("", `| ${columns.join(" | ")} |`, `|${" --- |".repeat(columns.length)}`, ...rows);
  return lines.join("\n");
}

function summarise(profile: Profiler.Profile, requests: number): string {
  const selfMicros = new Map<number, number>();
  const timeDeltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (timeDeltas[index] ?? 0)));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    if (micros === 0) continue;
    const who = owner(node);
    byOwner.set(who, (byOwner.get(who) ?? 0) + micros);
    if (who !== "(idle)") busy += micros;
    const name = `${node.callFrame.functionName || "(anonymous)"} ${who}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const rows = (entries: Map<string, number>, limit: number) => heaviestRows(entries, limit, { total: busy, perRequest: (micros) => (micros / 1000 / requests).toFixed(3), skip: "(idle)" });
  return report(`CPU per request (not idle): ${(busy / 1000 / requests).toFixed(2)} ms over ${requests} requests`, [
    { columns: ["owner", "ms/request", "share of busy"], rows: rows(byOwner, 25) },
    { columns: ["function", "ms/request", "share of busy"], rows: rows(byFunction, 30) },
  ]);
}

/** Our own code: a top-level folder of ours, not a package. */
const OWN_CODE = /\/(server|db|app)\//;

/**
 * Bytes allocated per request, each sample charged to the innermost function of ours on its stack (a
 * package's or Node's allocation to the function of ours that called it), then the heaviest allocating functions.
 */
function summariseAllocation(profile: HeapProfiler.SamplingHeapProfile, requests: number): string {
  const byOwnFunction = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const label = (frame: Runtime.CallFrame) => `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`;
  const visit = (node: HeapProfiler.SamplingHeapProfileNode, ownCaller: string) => {
    const name = label(node.callFrame);
    const own = OWN_CODE.test(node.callFrame.url) && !node.callFrame.url.includes("node_modules") ? name : ownCaller;
    total += node.selfSize;
    byOwnFunction.set(own, (byOwnFunction.get(own) ?? 0) + node.selfSize);
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child, own);
  };
  visit(profile.head, "(no function of ours on the stack)");
  const rows = (entries: Map<string, number>, limit: number) => heaviestRows(entries, limit, { total, perRequest: (bytes) => (bytes / 1024 / requests).toFixed(2) });
  return report(`Allocated per request: ${(total / 1024 / requests).toFixed(1)} KB over ${requests} requests (sampled every 256 bytes)`, [
    { columns: ["nearest function of ours", "KB/request", "share"], rows: rows(byOwnFunction, 30) },
    { columns: ["allocating function", "KB/request", "share"], rows: rows(byFunction, 20) },
  ]);
}

/** V8 takes these flags (objects the young and old generation collections freed, so every allocation counts); Node's typings do not list them yet. */
type SamplingParameters = HeapProfiler.StartSamplingParameterType & { includeObjectsCollectedByMajorGC: boolean; includeObjectsCollectedByMinorGC: boolean };

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  progress("creating the bench database");
  const url = await createBenchDatabase();
  const app = await openInProcessApp(url, { counting: false });
  try {
    let cart = await openCart(app, BENCH_LOCATION_ID);
    let adds = 0;
    const original = cart.addItemRequest(0);
    const once = async () => {
      if (options.operation === "replay") {
        await app.call("POST", original.path, 200, original.headers, original.body);
        return;
      }
      if (options.operation === "ordering-session") {
        await app.call("POST", `/locations/${BENCH_LOCATION_ID}/ordering-sessions`, 201, { "content-type": "application/json", "idempotency-key": idempotencyKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
        return;
      }
      if (options.operation === "get-cart") {
        await cart.get();
        return;
      }
      if (options.lines > 0) {
        // A cart of `lines` lines; each add merges into one of them, a fresh cart before one reaches its cap.
        if (adds === 0 || adds === options.lines * 90) {
          cart = await openCart(app, BENCH_LOCATION_ID);
          for (let line = 0; line < options.lines; line += 1) await cart.addItem(line);
          adds = options.lines;
        }
        await cart.addItem(adds % options.lines);
        adds += 1;
        return;
      }
      // The load scenario's cart: 1..5 lines, later adds merge; a fresh cart before a line reaches its cap.
      if (adds === 400) {
        cart = await openCart(app, BENCH_LOCATION_ID);
        adds = 0;
      }
      await cart.addItem(adds % 5);
      adds += 1;
    };
    if (options.operation === "replay") await app.call("POST", original.path, 200, original.headers, original.body);
    if (options.operation === "get-cart") for (let line = 0; line < 3; line += 1) await cart.addItem(line);
    progress("warming up (500 requests)");
    for (let index = 0; index < 500; index += 1) await once();
    if (options.cpuOnly) {
      // Without the sampling profiler's own cost: the process's CPU time (user + system) over the requests.
      const before = process.cpuUsage();
      for (let index = 0; index < options.requests; index += 1) await once();
      const used = process.cpuUsage(before);
      process.stdout.write(`CPU per request (process): ${((used.user + used.system) / 1000 / options.requests).toFixed(3)} ms over ${options.requests} requests\n`);
      return;
    }
    const session = new Session();
    session.connect();
    if (options.alloc) {
      await session.post("HeapProfiler.enable");
      const parameters: SamplingParameters = { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
      await session.post("HeapProfiler.startSampling", parameters);
      progress(`sampling the allocations of ${options.requests} ${options.operation} requests`);
      for (let index = 0; index < options.requests; index += 1) await once();
      const { profile } = await session.post("HeapProfiler.stopSampling");
      session.disconnect();
      if (options.save) writeFileSync(options.save, JSON.stringify(profile));
      process.stdout.write(`${summariseAllocation(profile, options.requests)}\n`);
      return;
    }
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    progress(`profiling ${options.requests} ${options.operation} requests`);
    for (let index = 0; index < options.requests; index += 1) {
      await once();
      if ((index + 1) % 500 === 0) progress(`${index + 1} / ${options.requests}`);
    }
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    if (options.save) writeFileSync(options.save, JSON.stringify(profile));
    process.stdout.write(`${summarise(profile, options.requests)}\n`);
  } finally {
    await app.close();
    await dropBenchDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
