import type { Socket } from "node:net";
import postgres from "postgres";
import type { DatabaseHandle } from "../db/client";
import { drizzleOverPostgres } from "../db/open";
import { tcpNoDelaySockets, type SocketTarget } from "../db/tcp-socket";
import { buildDeps } from "../server/app/container";
import type { AppDeps } from "../server/app/deps";
import { parseEnv } from "../server/env";
import { PEER_ADDRESS_HEADER } from "../server/http/client-ip";
import { createRestHandler, REST_PREFIX } from "../server/http/rest-handler";
import { BENCH_AUTH_SECRET, poolSettings } from "./database";
import { addItemBody, idempotencyKey } from "./scenarios/common";

/**
 * Statements each operation sends to Postgres, counted at the driver (postgres-js `debug` hook,
 * so BEGIN/COMMIT and the advisory lock count too), through the real REST handler in-process.
 * The rule under test: the count does not grow with the cart or the menu (no N+1).
 */
export const CART_SIZES = [1, 20, 100] as const;

export type QueryCountReport = {
  menus: { locationId: string; productsServed: number; queries: number }[];
  carts: { lines: number; addItem: number; getCart: number }[];
  orderingSession: number;
  /** One guest order from the first request to the paid order: what the capacity estimate multiplies. */
  order: OrderStatements;
  constant: { menus: boolean; addItem: boolean; getCart: boolean };
};

/** What the counting connection has sent: statements, COMMITs among them, and round trips (writes after an answer; see countingSocket). */
export type StatementCounts = { count: number; commits: number; roundTrips: number };

/** `onStatement` (tests) sees each statement's text as it is sent, when counting. */
export async function openCountingDatabase(
  url: string,
  options: { counting: boolean; onStatement?: (query: string) => void } = { counting: true },
): Promise<{ handle: DatabaseHandle; statements: StatementCounts }> {
  const statements: StatementCounts = { count: 0, commits: 0, roundTrips: 0 };
  // With a `debug` hook the driver captures a stack trace for every query it makes (postgres-js
  // query.js), which a CPU profile of the service must not include: `counting: false` leaves the
  // hook and the counting socket out, and the counts at 0.
  const counters = options.counting
    ? {
        debug: (_connection: number, query: string) => {
          statements.count += 1;
          options.onStatement?.(query);
          if (/^\s*commit\b/i.test(query)) statements.commits += 1;
        },
        ...countingSocket(() => (statements.roundTrips += 1)),
      }
    : tcpNoDelaySockets();
  // One connection, opened before counting starts: a connection opened mid-measurement would add
  // postgres-js's own type lookup to the count. The services never hold two at once (PGlite has one too).
  const client = postgres(url, { max: 1, prepare: poolSettings.DATABASE_PREPARE, onnotice: () => undefined, ...counters });
  const db = await drizzleOverPostgres(client, { ...poolSettings, DATABASE_POOL_MAX: 1 });
  return {
    statements,
    handle: {
      db,
      kind: "postgres",
      ping: async () => {
        await client`select 1`;
      },
      close: () => client.end({ timeout: 5 }),
    },
  };
}

/**
 * postgres.js's `socket` option (its README, "Custom socket"; missing from its type declarations):
 * the connection's socket, whose round trips are counted. The driver gathers the statements issued
 * before its next turn of the event loop into one write (or writes at once when a batch passes 1 KB,
 * and the rest of the batch a moment later), then waits for their answers. A round trip is therefore
 * a write after the server last answered: the writes the driver makes before any answer comes back
 * are one round trip however many they are.
 */
function countingSocket(onRoundTrip: () => void): { socket: (target: SocketTarget) => Socket } {
  const { socket } = tcpNoDelaySockets();
  return { socket: (target) => countingRoundTrips(socket(target), onRoundTrip) };
}

function countingRoundTrips(socket: Socket, onRoundTrip: () => void): Socket {
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let answered = true;
  socket.on("data", () => (answered = true));
  // An own property of this socket object, which this module made: counts, then writes as before.
  // (Node itself replaces it with an erroring write once the other side has closed.)
  const counted = (...args: unknown[]) => {
    if (answered) onRoundTrip();
    answered = false;
    return write(...args);
  };
  Object.defineProperty(socket, "write", { value: counted, writable: true, configurable: true });
  return socket;
}

const allEqual = (values: number[]) => values.every((value) => value === values[0]);

export type InProcessCall = { queries: number; commits: number; roundTrips: number; text: string; etag: string; status: number; ms: number };
export type InProcessApp = {
  /** The app's dependencies, the counting database among them (bench/layers.ts enters the service below the handler with them). */
  deps: AppDeps;
  /** One request through the REST handler; throws unless it answers `expectStatus`. */
  call: (method: string, path: string, expectStatus: number, headers?: Record<string, string>, body?: string) => Promise<InProcessCall>;
  /**
   * Waits until the connection is free: a replay answers before its COMMIT has come back
   * (server/services/idempotency.ts), and the request timed next must not wait for it instead.
   */
  idle: () => Promise<void>;
  close: () => Promise<void>;
};

/** The real REST handler in-process over one counting connection (see openCountingDatabase). */
/** `counting: false`: statements are not counted (each call's counts read 0), for a CPU profile without the counting's own cost. */
export async function openInProcessApp(url: string, options: { counting: boolean } = { counting: true }): Promise<InProcessApp> {
  const { handle, statements } = await openCountingDatabase(url, options);
  const env = parseEnv({ NODE_ENV: "production", AUTH_SECRET: BENCH_AUTH_SECRET, DATABASE_URL: url, RATE_LIMIT_MAX: "100000000", CLIENT_IP_SOURCE: "socket", LOG_LEVEL: "warn", SIMULATED_PAYMENTS: "true" });
  // Built like the app's (so integrations added to AppDeps come along), then given the counting
  // database; the pool buildDeps opened never connected (postgres-js connects lazily).
  const built = await buildDeps(env);
  await built.database.close();
  const deps: AppDeps = { ...built, database: handle };
  const handler = createRestHandler(() => Promise.resolve(deps));
  await handle.ping();

  async function call(method: string, path: string, expectStatus: number, headers: Record<string, string> = {}, body?: string): Promise<InProcessCall> {
    const before = statements.count;
    const commitsBefore = statements.commits;
    const roundTripsBefore = statements.roundTrips;
    const started = performance.now();
    const response = await handler(
      new Request(`http://127.0.0.1${REST_PREFIX}${path}`, { method, body, headers: { [PEER_ADDRESS_HEADER]: "127.0.0.1", ...headers } }),
    );
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== expectStatus) throw new Error(`in-process: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return { queries: statements.count - before, commits: statements.commits - commitsBefore, roundTrips: statements.roundTrips - roundTripsBefore, text, etag: response.headers.get("etag") ?? "", status: response.status, ms };
  }

  return {
    deps,
    call,
    idle: () => handle.ping(),
    close: async () => {
      await deps.rateLimiter.close?.();
      await handle.close();
    },
  };
}

export async function measureQueryCounts(url: string, locations: { seeded: string; large: string }): Promise<QueryCountReport> {
  const { call, close } = await openInProcessApp(url);
  try {
    const menus: QueryCountReport["menus"] = [];
    for (const locationId of [locations.seeded, locations.large]) {
      const result = await call("GET", `/locations/${locationId}/menus`, 200);
      const body = JSON.parse(result.text) as { menus: { categories: { products: unknown[] }[] }[] };
      const productsServed = body.menus.flatMap((menu) => menu.categories).reduce((sum, category) => sum + category.products.length, 0);
      menus.push({ locationId, productsServed, queries: result.queries });
    }

    const session = await call("POST", `/locations/${locations.seeded}/ordering-sessions`, 201, { "content-type": "application/json", "idempotency-key": idempotencyKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
    const { cart, cartAccessToken } = JSON.parse(session.text) as { cart: { id: string }; cartAccessToken: string };
    const cartPath = `/locations/${locations.seeded}/carts/${cart.id}`;
    let etag = session.etag;
    const addItem = async (variant: number) => {
      const headers = { "content-type": "application/json", "x-cart-token": cartAccessToken, "if-match": etag, "idempotency-key": idempotencyKey() };
      const result = await call("POST", `${cartPath}/items`, 200, headers, addItemBody(variant));
      etag = result.etag;
      return result.queries;
    };

    const carts: QueryCountReport["carts"] = [];
    let lines = 0;
    for (const size of CART_SIZES) {
      while (lines < size) await addItem(lines++);
      // Variant 0 is already a line: this add merges into it, so the cart stays at `size` lines.
      const addQueries = await addItem(0);
      const read = await call("GET", cartPath, 200, { "x-cart-token": cartAccessToken });
      carts.push({ lines: size, addItem: addQueries, getCart: read.queries });
    }

    return {
      menus,
      carts,
      orderingSession: session.queries,
      order: await measureOrders(call, locations.seeded),
      constant: {
        menus: allEqual(menus.map((entry) => entry.queries)),
        addItem: allEqual(carts.map((entry) => entry.addItem)),
        getCart: allEqual(carts.map((entry) => entry.getCart)),
      },
    };
  } finally {
    await close();
  }
}

export type OrderStatements = { requests: string[]; statements: number; commits: number; roundTrips: number; cpuMsPerOrder: number; ordersTimed: number };

const TIMED_ORDERS = 30;

/**
 * The statements and round trips of one order after TIMED_ORDERS untimed ones (so every statement is
 * already prepared on the connection: a statement's first run takes one round trip more), then this
 * process's CPU time per order over TIMED_ORDERS more.
 */
async function measureOrders(call: InProcessApp["call"], locationId: string): Promise<OrderStatements> {
  for (let order = 0; order < TIMED_ORDERS; order += 1) await measureOrder(call, locationId);
  const steady = await measureOrder(call, locationId);
  const before = process.cpuUsage();
  for (let order = 0; order < TIMED_ORDERS; order += 1) await measureOrder(call, locationId);
  const used = process.cpuUsage(before);
  return { ...steady, cpuMsPerOrder: (used.user + used.system) / 1000 / TIMED_ORDERS, ordersTimed: TIMED_ORDERS };
}

/**
 * A guest takeout order as a storefront places it: ordering session, three add items, the payment
 * session, the payment with the simulated processor's good test card, and one order-result poll.
 * The menu read is left out: it is served from the response cache (no statement) in the steady state.
 */
async function measureOrder(call: InProcessApp["call"], locationId: string): Promise<Pick<OrderStatements, "requests" | "statements" | "commits" | "roundTrips">> {
  const calls: { name: string; result: InProcessCall }[] = [];
  const step = async (name: string, ...args: Parameters<InProcessApp["call"]>) => {
    const result = await call(...args);
    calls.push({ name, result });
    return result;
  };
  const json = { "content-type": "application/json" };
  const session = await step("ordering session", "POST", `/locations/${locationId}/ordering-sessions`, 201, { ...json, "idempotency-key": idempotencyKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
  const { cart, cartAccessToken } = JSON.parse(session.text) as { cart: { id: string }; cartAccessToken: string };
  const cartPath = `/locations/${locationId}/carts/${cart.id}`;
  const token = { "x-cart-token": cartAccessToken };
  let etag = session.etag;
  let quoteFingerprint = "";
  for (let variant = 0; variant < 3; variant += 1) {
    const added = await step("add item", "POST", `${cartPath}/items`, 200, { ...json, ...token, "if-match": etag, "idempotency-key": idempotencyKey() }, addItemBody(variant));
    etag = added.etag;
    quoteFingerprint = (JSON.parse(added.text) as { quoteFingerprint: string }).quoteFingerprint;
  }
  await step("payment session", "POST", `${cartPath}/payment-session`, 200, { ...json, ...token, "if-match": etag, "idempotency-key": idempotencyKey() }, "{}");
  await step("payment", "POST", `${cartPath}/payments`, 200, { ...json, ...token, "idempotency-key": idempotencyKey() }, JSON.stringify({ quoteFingerprint, paymentMethodId: "pm_card_visa" }));
  await step("order result", "GET", `${cartPath}/order-result`, 200, token);
  return {
    requests: calls.map(({ name, result }) => `${name} ${result.queries}/${result.commits}/${result.roundTrips}`),
    statements: calls.reduce((sum, { result }) => sum + result.queries, 0),
    commits: calls.reduce((sum, { result }) => sum + result.commits, 0),
    roundTrips: calls.reduce((sum, { result }) => sum + result.roundTrips, 0),
  };
}
