/**
 * `npm run bench:layers [-- --rounds=N] [-- --requests=N]`
 *
 * Where GET cart's CPU goes, layer by layer: the same read of the same 3-line cart, in-process
 * (NODE_ENV=production, one Postgres connection), entered at each layer of the service in turn, and
 * the floor's minimal SQL (bench/controls/floor-sql.ts) beside them. Each layer's CPU per request
 * (user + system time of this process, no profiler) minus the next one's is what that layer adds:
 *
 * - REST handler, Response form: what Next's route runs (createRestHandler), the Response read back;
 * - REST answerer: what `npm start`'s own mount runs (createRestAnswerer): rate limit, CORS, route
 *   match, headers, access log, and everything below;
 * - trpc-to-openapi bridge: the route already matched, the request's context made, the adapter run
 *   (server/http/openapi-bridge.ts);
 * - tRPC caller: the procedure called directly with the same context (its middlewares, input parse,
 *   resolver), its answer serialised;
 * - use case: services/carts.ts getCart (read, checks, view), its answer serialised;
 * - floor: the same read as bare SQL over postgres.js and its JSON.
 *
 * Rounds are interleaved (every layer once per round, the order rotating), so a slower minute of the
 * shared machine falls on all of them alike. Informative, as every CPU figure here: it explains the
 * load benchmark's ratios (bench/README.md), it is not a target.
 */
import "./production-process";
import { createRequestContext } from "../server/app/request-context";
import { PEER_ADDRESS_HEADER } from "../server/http/client-ip";
import { createProcedureRunner } from "../server/http/openapi-bridge";
import { createRestAnswerer, REST_PREFIX } from "../server/http/rest-handler";
import { matchRestRoute } from "../server/http/rest-routes";
import { appRouter } from "../server/routers";
import { getCart } from "../server/services/carts";
import { createCallerFactory } from "../server/trpc/init";
import { openFloorSql } from "./controls/floor-sql";
import { createBenchDatabase, dropBenchDatabase } from "./database";
import { openCart } from "./phases/cart-session";
import { openFloorCart } from "./phases/floor-cart";
import { openInProcessApp } from "./query-count";
import { CART_READ_LINES } from "./scenarios/cart";
import { BENCH_LOCATION_ID } from "./scenarios/common";

type Options = { rounds: number; requests: number };

function parseArgs(argv: string[]): Options {
  const options: Options = { rounds: 20, requests: 300 };
  for (const arg of argv) {
    const [name, value = ""] = arg.replace(/^--/, "").split("=");
    if (name === "rounds" || name === "requests") options[name] = Number(value);
    else throw new Error(`unknown argument ${arg}`);
  }
  for (const [name, value] of Object.entries(options)) if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return options;
}

const progress = (message: string) => process.stderr.write(`[layers] ${message}\n`);

type Layer = { name: string; run: () => Promise<unknown> };

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  progress("creating the bench database");
  const url = await createBenchDatabase();
  const app = await openInProcessApp(url, { counting: false });
  const floorSql = openFloorSql(url, 1);
  try {
    const { deps } = app;
    const cart = await openCart(app, BENCH_LOCATION_ID);
    for (let line = 0; line < CART_READ_LINES; line += 1) await cart.addItem(line);

    // The floor's own cart of as many lines, made by the floor's own operations.
    const floorCart = await openFloorCart(floorSql, BENCH_LOCATION_ID);
    for (let line = 0; line < CART_READ_LINES; line += 1) await floorCart.addItem(line);

    const path = `/locations/${BENCH_LOCATION_ID}/carts/${cart.cartId}`;
    const headers = { [PEER_ADDRESS_HEADER]: "127.0.0.1", "x-cart-token": cart.cartAccessToken };
    const request = () => new Request(`http://127.0.0.1${REST_PREFIX}${path}`, { headers });
    const contextFor = (incoming: Request) => createRequestContext({ requestId: "layers", deps, clientIp: "127.0.0.1", origin: "http://127.0.0.1", headers: incoming.headers });
    const answer = createRestAnswerer(() => Promise.resolve(deps));
    const runProcedure = createProcedureRunner();
    const caller = createCallerFactory(appRouter);
    const ids = { locationId: BENCH_LOCATION_ID, cartId: cart.cartId };

    const expectOk = (status: number) => {
      if (status !== 200) throw new Error(`a layer answered ${status}`);
    };
    const layers: Layer[] = [
      { name: "REST handler, Response form (Next's route)", run: async () => expectOk((await app.call("GET", path, 200, { "x-cart-token": cart.cartAccessToken })).status) },
      { name: "REST answerer (npm start's own mount)", run: async () => expectOk((await answer(request())).status) },
      {
        name: "trpc-to-openapi bridge",
        run: async () => {
          const incoming = request();
          const route = matchRestRoute("GET", path);
          const outcome = await runProcedure(incoming, route, route.canonicalPath, undefined, contextFor(incoming));
          if (!outcome.ok) throw outcome.error;
        },
      },
      { name: "tRPC caller", run: async () => JSON.stringify(await caller(contextFor(request())).carts.get(ids)) },
      {
        name: "use case (getCart)",
        run: async () => {
          const context = contextFor(request());
          // What the procedure's credential middleware would have presented.
          context.credential = { cartToken: cart.cartAccessToken };
          return JSON.stringify(await getCart(context, ids));
        },
      },
      { name: "floor SQL (K0/K1's work)", run: () => floorCart.get() },
    ];

    progress("warming up");
    for (const layer of layers) for (let index = 0; index < options.requests; index += 1) await layer.run();
    const cpu = new Map<string, number>(layers.map((layer) => [layer.name, 0]));
    for (let round = 0; round < options.rounds; round += 1) {
      // The order rotates, so no layer always runs right after the same one.
      for (let slot = 0; slot < layers.length; slot += 1) {
        const layer = layers[(round + slot) % layers.length] as Layer;
        const before = process.cpuUsage();
        for (let index = 0; index < options.requests; index += 1) await layer.run();
        const used = process.cpuUsage(before);
        cpu.set(layer.name, (cpu.get(layer.name) ?? 0) + used.user + used.system);
      }
      progress(`round ${round + 1} / ${options.rounds}`);
    }

    const perRequest = layers.map((layer) => (cpu.get(layer.name) ?? 0) / 1000 / (options.rounds * options.requests));
    const rows = layers.map((layer, index) => {
      const own = perRequest[index] ?? 0;
      const below = perRequest[index + 1];
      return `| ${layer.name} | ${own.toFixed(3)} | ${below === undefined ? "-" : (own - below).toFixed(3)} |`;
    });
    process.stdout.write(
      [
        `GET cart (${CART_READ_LINES} lines), in-process, ${options.rounds} interleaved rounds of ${options.requests} requests per layer: CPU ms per request`,
        "",
        "| entered at | CPU ms/request | added by this layer |",
        "| --- | --- | --- |",
        ...rows,
        "",
      ].join("\n"),
    );
  } finally {
    await floorSql.end({ timeout: 5 });
    await app.close();
    await dropBenchDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
