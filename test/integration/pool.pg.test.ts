import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type postgres from "postgres";
import type { DatabaseHandle } from "../../db/client";
import { APP_NAME, directClient, elapsedSince, expectUnavailable, holdCartLock, processFaultSpy, waitForBlockedBackends } from "../db-fault-helpers";
import { cartCredential, createTestApp, HARBOR, idemKey, openTestDatabase, type TestApp } from "../harness";
import { burgerSelections, loadFixtures, prepareCart, type PreparedCart } from "../routes";

/**
 * A pool of two connections, both held by transactions parked behind another client's row locks:
 * every further request waits at most DATABASE_QUEUE_TIMEOUT_MS for a connection and then answers
 * 503; a transaction whose caller gave up never runs later; once the locks go, everything works.
 */
const QUEUE_TIMEOUT_MS = 1_000;
const MARGIN_MS = 1_500;

let database: DatabaseHandle;
let app: TestApp;
let direct: postgres.Sql;
let databaseName: string;

beforeAll(async () => {
  database = await openTestDatabase("postgres", {
    settings: { DATABASE_POOL_MAX: 2, DATABASE_QUEUE_TIMEOUT_MS: QUEUE_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS: 15_000 },
  });
  app = await createTestApp({ database });
  await loadFixtures(app);
  ({ direct, name: databaseName } = await directClient(database));
});

afterAll(async () => {
  await app?.close();
  await direct?.end({ timeout: 5 });
  await database?.close();
});

const cartUrl = (cart: PreparedCart) => `/locations/${cart.locationId}/carts/${cart.cartId}`;

function addBurger(cart: PreparedCart, key = idemKey()) {
  return app.call("POST", `${cartUrl(cart)}/items`, {
    headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": key },
    body: { productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" },
  });
}

function newSession(key: string) {
  return app.call("POST", `/locations/${HARBOR.locationId}/ordering-sessions`, { headers: { "Idempotency-Key": key }, body: { fulfillmentMethod: "takeout" } });
}

async function revisionOf(cart: PreparedCart): Promise<number> {
  const [row] = await direct<{ revision: string }[]>`select revision from carts where id = ${cart.cartId}`;
  return Number(row?.revision);
}

async function cartCount(): Promise<number> {
  const [row] = await direct<{ n: number }[]>`select count(*)::int as n from carts`;
  return row?.n ?? -1;
}

async function recordsFor(keys: string[]): Promise<number> {
  const [row] = await direct<{ n: number }[]>`select count(*)::int as n from idempotency_records where key in ${direct(keys)}`;
  return row?.n ?? -1;
}

/** Until no backend of the service is running anything (given-up transactions reached a connection and rolled back). */
async function poolSettled(timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await direct<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity where datname = ${databaseName} and application_name = ${APP_NAME} and state <> 'idle'`;
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.n} backends still busy after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("pool exhausted", () => {
  it("a burst of more requests than connections queues and succeeds", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => app.call("GET", `/locations/${HARBOR.locationId}/menus`)));
    expect(results.map((result) => result.status)).toEqual(Array.from({ length: 12 }, () => 200));
  });

  it("with every connection held: bounded waits then 503, no deadlock, given-up transactions never run, then recovery", async () => {
    const [heldA, heldB, idle] = [await prepareCart(app), await prepareCart(app), await prepareCart(app)];
    const idleRevision = await revisionOf(idle);
    const spy = processFaultSpy();
    const locks = [await holdCartLock(direct, heldA.cartId), await holdCartLock(direct, heldB.cartId)];
    let released = false;
    try {
      // Both pooled connections end up inside transactions waiting for the locks.
      const parked = [addBurger(heldA), addBurger(heldB)];
      await waitForBlockedBackends(direct, databaseName, 2);
      const cartsBefore = await cartCount();

      const sessionKey = idemKey();
      const mutationKey = idemKey();
      const waiting = [
        // no-cache: a fresh read, which needs a pooled connection (a cached one would not).
        { label: "read (menus)", run: () => app.call("GET", `/locations/${HARBOR.locationId}/menus`, { headers: { "Cache-Control": "no-cache" } }) },
        { label: "read (cart)", run: () => app.call("GET", cartUrl(idle), { headers: cartCredential(idle) }) },
        { label: "write (ordering session)", run: () => newSession(sessionKey) },
        { label: "cart mutation", run: () => addBurger(idle, mutationKey) },
      ];
      const outcomes = await Promise.all(
        waiting.map(async ({ label, run }) => {
          const started = performance.now();
          const response = await run();
          return { label, response, elapsedMs: elapsedSince(started) };
        }),
      );
      for (const { label, response, elapsedMs } of outcomes) {
        expectUnavailable(response, label);
        // They did wait for a connection, and not much longer than the configured bound.
        expect(elapsedMs, label).toBeGreaterThanOrEqual(QUEUE_TIMEOUT_MS * 0.9);
        expect(elapsedMs, label).toBeLessThan(QUEUE_TIMEOUT_MS + MARGIN_MS);
      }

      for (const lock of locks) await lock.release();
      released = true;
      // The parked requests held their connections the whole time and now complete normally.
      for (const response of await Promise.all(parked)) expect(response.status, response.text).toBe(200);
      await poolSettled();

      // The given-up write and mutation reached a connection after their callers had their 503: nothing of them remains.
      expect(await cartCount()).toBe(cartsBefore);
      expect(await revisionOf(idle)).toBe(idleRevision);
      expect(await recordsFor([sessionKey, mutationKey])).toBe(0);

      // Retried with the same keys, each takes effect exactly once.
      expect((await newSession(sessionKey)).status).toBe(201);
      expect((await newSession(sessionKey)).headers.get("idempotent-replayed")).toBe("true");
      expect((await addBurger(idle, mutationKey)).status).toBe(200);
      expect((await addBurger(idle, mutationKey)).headers.get("idempotent-replayed")).toBe("true");
      expect(await cartCount()).toBe(cartsBefore + 1);
      expect(await revisionOf(idle)).toBe(idleRevision + 1);
      expect(await recordsFor([sessionKey, mutationKey])).toBe(2);
      expect(spy.events).toEqual([]);
    } finally {
      spy.stop();
      if (!released) for (const lock of locks) await lock.release();
    }
  });
});
