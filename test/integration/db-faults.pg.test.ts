import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import type postgres from "postgres";
import { startFaultProxy, type FaultProxy } from "../fault-proxy";
import {
  directClient,
  elapsedSince,
  expectUnavailable,
  holdCartLock,
  postgresAddress,
  processFaultSpy,
  terminateAppBackends,
  waitForBlockedBackends,
} from "../db-fault-helpers";
import { cartCredential, createTestApp, idemKey, openTestDatabase, type TestApp, type TestResponse } from "../harness";
import { burgerSelections, loadFixtures, prepareCart, routeCases, send, validHeaders, type PreparedCart, type RouteCase } from "../routes";

/**
 * The database failing under a running service: every database-backed route (the whole table of
 * test/routes.ts) answers 503 DEPENDENCY_UNAVAILABLE within a bound while Postgres is down or hung,
 * the same process and pool serve again once it is back, and a backend killed mid-request leaves
 * nothing half-written. Faults come from a TCP proxy between the service and the shared server.
 */
const CONNECT_TIMEOUT_SECONDS = 1;
const STATEMENT_TIMEOUT_MS = 1_500;
const QUEUE_TIMEOUT_MS = 1_500;
/** The longest a hung server may hold a request: queued, then a statement unanswered past statement timeout + 2 s grace. */
const HUNG_BOUND_MS = QUEUE_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 2_000;
const MARGIN_MS = 2_000;
const RECOVERY_BOUND_MS = 2_500;

let proxy: FaultProxy;
let database: DatabaseHandle;
let app: TestApp;
let direct: postgres.Sql;
let databaseName: string;

beforeAll(async () => {
  proxy = await startFaultProxy(postgresAddress());
  database = await openTestDatabase("postgres", {
    via: proxy,
    settings: {
      DATABASE_POOL_MAX: 6,
      DATABASE_CONNECT_TIMEOUT_SECONDS: CONNECT_TIMEOUT_SECONDS,
      DATABASE_STATEMENT_TIMEOUT_MS: STATEMENT_TIMEOUT_MS,
      DATABASE_QUEUE_TIMEOUT_MS: QUEUE_TIMEOUT_MS,
    },
  });
  app = await createTestApp({ database });
  await loadFixtures(app);
  ({ direct, name: databaseName } = await directClient(database));
});

afterAll(async () => {
  proxy?.restore();
  await app?.close();
  await direct?.end({ timeout: 5 });
  await database?.close();
  await proxy?.close();
});

type Prepared = { route: RouteCase; cart: PreparedCart; revision: number };

async function revisionOf(cart: PreparedCart): Promise<number> {
  const response = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
  expect(response.status, response.text).toBe(200);
  return (response.body as { revision: number }).revision;
}

/** One ready cart per route, prepared while the database is healthy, a few at a time. */
async function prepareAll(): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  const queue = [...routeCases];
  const worker = async () => {
    for (let route = queue.shift(); route; route = queue.shift()) {
      const cart = await prepareCart(app, route);
      prepared.push({ route, cart, revision: await revisionOf(cart) });
    }
  };
  await Promise.all(Array.from({ length: 3 }, worker));
  return prepared;
}

/** Every route at once, each with its own timing. */
async function sendAll(prepared: Prepared[]): Promise<{ route: RouteCase; response: TestResponse; elapsedMs: number }[]> {
  // Every route's database path is under test: anonymous reads cached before the fault would not take it.
  app.deps.responseCache.clear();
  return Promise.all(
    prepared.map(async ({ route, cart }) => {
      const started = performance.now();
      const response = await send(app, route, cart, validHeaders(route, cart));
      return { route, response, elapsedMs: elapsedSince(started) };
    }),
  );
}

/** Polls a cheap read until the service answers again; the time it took. */
async function recovery(limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await app.call("GET", "/locations/loc_harbor_kitchen_downtown/gratuity", { headers: { "Cache-Control": "no-cache" } });
    if (response.status === 200) return elapsedSince(started);
    expectUnavailable(response, "while recovering");
    if (elapsedSince(started) > limitMs) throw new Error(`no recovery within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** After an outage the same app answers again, and no request of the outage changed any cart. */
async function expectRecoveredUnchanged(prepared: Prepared[]): Promise<void> {
  // Reconnecting waits at most about a second after failures (db/open.ts reconnectBackoffSeconds), not the driver's 20 s.
  expect(await recovery(RECOVERY_BOUND_MS)).toBeLessThan(RECOVERY_BOUND_MS);
  for (const { route, cart, revision } of prepared) expect(await revisionOf(cart), route.name).toBe(revision);
}

it("runs on the driver as patched at install (patches/postgres+<version>.patch, by patch-package)", () => {
  // Without the patch a killed backend can end the process or wedge a pooled slot: see the patch's header.
  const patchesDir = path.resolve(import.meta.dirname, "..", "..", "patches");
  const [patchFile, ...others] = readdirSync(patchesDir).filter((name) => /^postgres\+.+\.patch$/.test(name));
  expect(patchFile, "one patch file for the postgres driver").toBeDefined();
  expect(others).toEqual([]);
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "..", "..");
  const installed = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  expect(patchFile).toBe(`postgres+${installed}.patch`);
  const hunks = patchedHunks(readFileSync(path.join(patchesDir, patchFile!), "utf8"));
  const patched = ["connection.js", "index.js", "query.js"].flatMap((name) => ["src", "cjs/src", "cf/src"].map((folder) => `${folder}/${name}`));
  expect(new Set(hunks.map((hunk) => hunk.file))).toEqual(new Set(patched));
  // Every hunk's result, context included, is in the installed file: the whole patch is applied, not a part of it.
  for (const { file, after } of hunks) expect(readFileSync(path.join(root, file), "utf8"), file).toContain(after);
});

/** Each hunk of a git-style patch as the text it leaves in its file (context and added lines), by path inside the package. */
function patchedHunks(patch: string): { file: string; after: string }[] {
  const hunks: { file: string; after: string }[] = [];
  let file: string | undefined;
  let current: { file: string; lines: string[] } | undefined;
  const flush = () => {
    if (current) hunks.push({ file: current.file, after: current.lines.join("\n") });
    current = undefined;
  };
  for (const line of patch.split("\n")) {
    const target = /^\+\+\+ b\/node_modules\/postgres\/(.+)$/.exec(line);
    if (line.startsWith("diff --git ")) flush();
    else if (target) file = target[1];
    else if (line.startsWith("@@")) {
      flush();
      if (file) current = { file, lines: [] };
    } else if (current && (line.startsWith(" ") || line.startsWith("+"))) current.lines.push(line.slice(1));
  }
  flush();
  return hunks;
}

/**
 * One set of prepared requests goes through every fault in turn (the outages change nothing, which
 * each step asserts), then through the healthy database again: the tests of this block run in order.
 */
describe("Postgres down, hung or restarted, then back: the same process and pool", () => {
  let prepared: Prepared[] = [];
  let spy: ReturnType<typeof processFaultSpy>;
  beforeAll(async () => {
    prepared = await prepareAll();
    spy = processFaultSpy();
  });
  afterAll(() => {
    spy.stop();
    proxy.restore();
  });

  it("refused connections (server down): every route answers 503 at once; only reads still fresh in the response cache are served", async () => {
    const cachedPath = "/locations/loc_harbor_kitchen_downtown/gratuity";
    const cached = await app.call("GET", cachedPath);
    proxy.refuse();
    try {
      // Answered from memory within its TTL, without the database; a fresh read of it is 503 like every route below.
      const duringOutage = await app.call("GET", cachedPath);
      expect(duringOutage.status).toBe(200);
      expect(duringOutage.text).toBe(cached.text);
      for (const { route, response, elapsedMs } of await sendAll(prepared)) {
        expectUnavailable(response, route.name);
        expect(elapsedMs, route.name).toBeLessThan(CONNECT_TIMEOUT_SECONDS * 1000 + MARGIN_MS);
      }
    } finally {
      proxy.restore();
    }
    await expectRecoveredUnchanged(prepared);
  });

  it("a hung server (connections accepted, nothing answered): 503 within the bound, never a hang", async () => {
    // The pool holds idle connections from the earlier requests: requests meet both those and new connections.
    proxy.pause();
    try {
      for (const { route, response, elapsedMs } of await sendAll(prepared)) {
        expectUnavailable(response, route.name);
        expect(elapsedMs, route.name).toBeLessThan(HUNG_BOUND_MS + MARGIN_MS);
      }
    } finally {
      proxy.restore();
    }
    await expectRecoveredUnchanged(prepared);
  });

  it("connections cut under the pool (a restarted server): the next requests reconnect", async () => {
    proxy.cutExisting();
    await expectRecoveredUnchanged(prepared);
  });

  it("a short refusal that one request meets, then back: the next request is answered at once, never held to its bound", async () => {
    // The race of item 4 in patches/postgres+3.4.9.patch: requests arriving between a socket's error and its
    // close were lost with the write and waited for the 5 s answer bound (5-10 in 12 tries before the fix).
    const gratuity = "/locations/loc_harbor_kitchen_downtown/gratuity";
    const read = () => app.call("GET", gratuity, { headers: { "Cache-Control": "no-cache" } });
    for (let attempt = 0; attempt < 8; attempt += 1) {
      // Idle pooled connections for the outage to cut.
      for (const response of await Promise.all(Array.from({ length: 4 }, read))) expect(response.status).toBe(200);
      proxy.refuse();
      try {
        expectUnavailable(await read(), "during the refusal");
      } finally {
        proxy.restore();
      }
      const started = performance.now();
      const next = await read();
      const elapsedMs = elapsedSince(started);
      if (next.status !== 200) expectUnavailable(next, "the first request after the refusal");
      expect(elapsedMs, `attempt ${attempt + 1}: ${next.status}`).toBeLessThan(1_000);
      expect(await recovery(RECOVERY_BOUND_MS)).toBeLessThan(RECOVERY_BOUND_MS);
    }
  });

  it("afterwards every route succeeds again, and nothing escaped as an unhandled rejection or exception", async () => {
    for (const { route, response } of await sendAll(prepared)) {
      expect(response.status, `${route.name}: ${response.text}`).toBe(route.successStatus ?? 200);
    }
    expect(spy.events).toEqual([]);
  });
});

describe("a backend killed mid-request (pg_terminate_backend)", () => {
  const cartUrl = (cart: PreparedCart) => `/locations/${cart.locationId}/carts/${cart.cartId}`;

  async function storedState(cart: PreparedCart, key: string) {
    const [row] = await direct<{ revision: string; lines: { quantity: number }[]; status: string }[]>`
      select revision, status, (select coalesce(json_agg(l.line), '[]'::json) from cart_lines l where l.cart_id = c.id) as lines from carts c where id = ${cart.cartId}`;
    const [records] = await direct<{ n: number }[]>`select count(*)::int as n from idempotency_records where key = ${key}`;
    const [placed] = await direct<{ n: number }[]>`select count(*)::int as n from orders where cart_id = ${cart.cartId}`;
    return { revision: Number(row?.revision), quantity: row?.lines.reduce((sum, line) => sum + line.quantity, 0), status: row?.status, records: records?.n, orders: placed?.n };
  }

  /** Parks the request inside its transaction behind another client's row lock, then kills the service's backends. */
  async function killedMidRequest(cart: PreparedCart, request: () => Promise<TestResponse>): Promise<TestResponse> {
    const lock = await holdCartLock(direct, cart.cartId);
    try {
      const pending = request();
      await waitForBlockedBackends(direct, databaseName, 1);
      expect(await terminateAppBackends(direct, databaseName)).toBeGreaterThanOrEqual(1);
      return await pending;
    } finally {
      await lock.release();
    }
  }

  /**
   * A client's retry after the 503: like the first request after a refused connection (above), the
   * first after a kill may still meet a pooled connection the kill cut and whose close the driver has
   * not seen yet (more likely on a loaded machine). That answer is a clean 503 that writes nothing;
   * the client retries with the same key, as Retry-After says.
   */
  async function retryUntilAnswered(request: () => Promise<TestResponse>, label: string): Promise<TestResponse> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await request();
      if (response.status !== 503 || attempt === 4) return response;
      expectUnavailable(response, `${label}, retry ${attempt}`);
    }
  }

  it("a cart mutation answers 503, writes nothing, and its retry with the same key applies exactly once", async () => {
    const cart = await prepareCart(app);
    const key = idemKey();
    const before = await storedState(cart, key);
    const add = () =>
      app.call("POST", `${cartUrl(cart)}/items`, {
        headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key },
        body: { productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" },
      });
    const spy = processFaultSpy();
    try {
      expectUnavailable(await killedMidRequest(cart, add), "killed add-item");
      // No half-written cart and no record of an outcome that did not happen.
      expect(await storedState(cart, key)).toEqual({ ...before, records: 0 });

      const retried = await retryUntilAnswered(add, "add-item");
      expect(retried.status, retried.text).toBe(200);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(await storedState(cart, key)).toEqual({ ...before, revision: before.revision + 1, quantity: (before.quantity ?? 0) + 1, records: 1 });
      const replayed = await add();
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body).toEqual(retried.body);
      expect(await storedState(cart, key)).toEqual({ ...before, revision: before.revision + 1, quantity: (before.quantity ?? 0) + 1, records: 1 });
      expect(spy.events).toEqual([]);
    } finally {
      spy.stop();
    }
  });

  it("a payment report answers 503 with no order and no lock; its retry places exactly one order", async () => {
    const route = routeCases.find((candidate) => candidate.procedure === "checkout.payments");
    if (!route) throw new Error("no payments route");
    const cart = await prepareCart(app, route);
    const headers = validHeaders(route, cart);
    const key = headers["Idempotency-Key"] ?? "";
    const before = await storedState(cart, key);
    expect(before).toMatchObject({ status: "OPEN", orders: 0 });
    const spy = processFaultSpy();
    try {
      expectUnavailable(await killedMidRequest(cart, () => send(app, route, cart, headers)), "killed payment");
      expect(await storedState(cart, key)).toEqual({ ...before, records: 0 });

      const retried = await retryUntilAnswered(() => send(app, route, cart, headers), "payment");
      expect(retried.status, retried.text).toBe(200);
      const after = await storedState(cart, key);
      expect(after).toMatchObject({ orders: 1, records: 1 });
      const replayed = await send(app, route, cart, headers);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(await storedState(cart, key)).toEqual(after);
      expect(spy.events).toEqual([]);
    } finally {
      spy.stop();
    }
  });
});
