import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runControlOperation } from "../../bench/controls/operations";
import { openCountingDatabase, type StatementCounts } from "../../bench/query-count";
import type { DatabaseHandle } from "../../db/client";
import { openPostgres } from "../../db/open";
import { queryRows } from "../../db/rows";
import { publish } from "../../server/catalog-admin/publish";
import { chowderCup } from "../checkout-helpers";
import { signIn, startCustomerCart } from "../customer-helpers";
import { createTestApp, databaseUrlOf, HARBOR, idemKey, mutate, openTestDatabase, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * The statements a cart mutation sends, counted at the driver (BEGIN and COMMIT included), and the
 * product rows it keeps between publications (server/services/catalog-cache.ts). Issue 16: add item
 * at most 6 statements, constant in cart size. Postgres only: the count is postgres.js's.
 */
let app: TestApp;
let database: DatabaseHandle;
let statements: StatementCounts;
/** The statements' texts in the order the driver sent them. */
const sentTexts: string[] = [];

beforeAll(async () => {
  database = await openTestDatabase("postgres");
  const url = databaseUrlOf(database);
  if (!url) throw new Error("no URL for the Postgres test database");
  const counting = await openCountingDatabase(url, { counting: true, onStatement: (query) => sentTexts.push(query) });
  statements = counting.statements;
  await counting.handle.ping();
  app = await createTestApp({ database: counting.handle });
});
afterAll(async () => {
  await app.close();
  await app.deps.database.close();
  await database.close();
});

const withInstructions = (specialInstructions: string) => ({ ...chowderCup, specialInstructions });

async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number; roundTrips: number }> {
  const before = { ...statements };
  const result = await run();
  return { result, statements: statements.count - before.count, roundTrips: statements.roundTrips - before.roundTrips };
}

/** What a counted request cost: statements sent, and round trips. */
/** The texts `run` sent, in order. */
async function textsSent(run: () => Promise<unknown>): Promise<string[]> {
  const from = sentTexts.length;
  await run();
  return sentTexts.slice(from);
}

/** Which of the statements each one is: BEGIN, the key's claim, a read by what it reads from, or the rest. */
const statementKinds = (texts: string[]) =>
  texts.map((text) => {
    if (/^\s*begin\b/i.test(text)) return "begin";
    if (text.includes("pg_try_advisory_xact_lock")) return "claim";
    if (/from carts c join locations l/.test(text)) return "cart read";
    if (/from locations l join merchants m/.test(text)) return "location read";
    if (/^\s*commit\b/i.test(text)) return "commit";
    return "write";
  });

const costOf = ({ statements: sent, roundTrips }: { statements: number; roundTrips: number }) => ({ sent, roundTrips });

async function addLine(cart: CartHandle, instructions: string) {
  const { result, statements: sent, roundTrips } = await counted(() => mutate(app, cart, "POST", "/items", withInstructions(instructions), { "Idempotency-Key": idemKey() }));
  expect(result.status, result.text).toBe(200);
  return { body: result.body as { items: { name: string; basePrice: string; specialInstructions: string }[] }, statements: sent, roundTrips };
}

describe("add item", () => {
  it("sends 5 statements once the product is known, the same at 1 and at 25 lines: BEGIN, key claim, cart with location, cart update with the answer, COMMIT", async () => {
    const cart = await startCart(app);
    const counts: number[] = [];
    for (let line = 0; line < 25; line += 1) counts.push((await addLine(cart, `line ${line}`)).statements);
    // The first add of the process may read the product row; every later one finds it kept.
    expect(counts.slice(1)).toEqual(Array.from({ length: 24 }, () => 5));
  });

  it("waits for Postgres twice: BEGIN with the key's claim and the cart read, then the cart update with the answer and the COMMIT", async () => {
    const cart = await startCart(app);
    await addLine(cart, "first");
    const added = await addLine(cart, "second");
    expect({ statements: added.statements, roundTrips: added.roundTrips }).toEqual({ statements: 5, roundTrips: 2 });
  });

  it("replays a retry in 2 round trips: BEGIN with the key's claim that finds its record (and the cart read, left unused), then the COMMIT", async () => {
    const cart = await startCart(app);
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() };
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}/items`;
    const first = await app.call("POST", path, { headers, body: chowderCup });
    expect(first.status, first.text).toBe(200);
    // The replay answers without waiting for its COMMIT (test/after-build/round-trips.test.ts), so it
    // is counted once the one connection is free again: a ping waits for it, and its own statement
    // and round trip are taken off.
    const ping = await counted(() => app.deps.database.ping());
    expect(costOf(ping)).toEqual({ sent: 1, roundTrips: 1 });
    const { result: replay, statements: sent, roundTrips } = await counted(async () => {
      const answer = await app.call("POST", path, { headers, body: chowderCup });
      await app.deps.database.ping();
      return answer;
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect({ statements: sent - 1, roundTrips: roundTrips - 1 }).toEqual({ statements: 4, roundTrips: 2 });
  });

  it("sends the key's claim before the cart read that goes with it, so the read runs after the claim", async () => {
    const cart = await startCart(app);
    await addLine(cart, "first");
    const texts = await textsSent(() => addLine(cart, "second"));
    expect(statementKinds(texts)).toEqual(["begin", "claim", "cart read", "write", "commit"]);
  });

  it("reads the product again after a publication, and prices the new line at the published price", async () => {
    const cart = await startCart(app);
    await addLine(cart, "before");
    const { catalogRevision } = await publish(app.deps.database.db, HARBOR.locationId, [{ kind: "modifierOptionPrice", productId: chowderCup.productId, groupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl", priceMinor: 777 }]);
    expect(catalogRevision).toBeGreaterThan(1);
    const fresh = await startCart(app);
    const first = await addLine(fresh, "after");
    expect(first.statements).toBe(6);
    const again = await addLine(fresh, "after, again");
    expect(again.statements).toBe(5);
    const read = await app.call("GET", `/locations/${fresh.locationId}/carts/${fresh.cartId}`, { headers: { "X-Cart-Token": fresh.token } });
    expect(read.text).toContain('"7.77"');
  });
});

describe("ordering session", () => {
  it("sends 5 statements in 2 round trips: BEGIN with the key's claim and the location read, then the cart insert with the answer and the COMMIT", async () => {
    await startCart(app);
    const { result: cart, statements: sent, roundTrips } = await counted(() => startCart(app));
    expect(cart.etag).toBe('"cart-0"');
    expect({ statements: sent, roundTrips }).toEqual({ statements: 5, roundTrips: 2 });
  });

  it("sends the key's claim before the location read that goes with it", async () => {
    await startCart(app);
    expect(statementKinds(await textsSent(() => startCart(app)))).toEqual(["begin", "claim", "location read", "write", "commit"]);
  });
});

describe("a signed-in customer's cart", () => {
  it("is created and changed in 2 round trips for 6 statements, the location or cart read and the session going with BEGIN and the key's claim", async () => {
    const { token } = await signIn(app);
    // The first of each prepares its statements on the connection (a round trip more for each).
    const warm = await startCustomerCart(app, token);
    expect((await mutate(app, warm, "POST", "/items", chowderCup)).status).toBe(200);
    const created = await counted(() => startCustomerCart(app, token));
    const added = await counted(() => mutate(app, created.result, "POST", "/items", chowderCup, { "Idempotency-Key": idemKey() }));
    expect(added.result.status, added.result.text).toBe(200);
    // BEGIN with the claim, the location (cart) read and the customer's session; the insert (update) with the answer and the COMMIT.
    expect([created, added].map(costOf)).toEqual([
      { sent: 6, roundTrips: 2 },
      { sent: 6, roundTrips: 2 },
    ]);
  });
});

describe("the bench's controls (bench/controls/operations.ts)", () => {
  it("send add item's and the ordering session's statements in as many round trips as the REST operations", async () => {
    const cart = await startCart(app);
    await addLine(cart, "warm-up");
    const control = (operation: string, query: Record<string, string>, headers: Record<string, string>, body: unknown) =>
      counted(() =>
        runControlOperation(app.deps, {
          method: "POST",
          operation,
          query: new URLSearchParams(query),
          headers: new Headers({ "idempotency-key": idemKey(), ...headers }),
          bodyText: JSON.stringify(body),
          clientIp: "127.0.0.1",
          origin: "http://127.0.0.1",
        }),
      );
    const added = await control("add-item", { locationId: cart.locationId, cartId: cart.cartId }, { "x-cart-token": cart.token, "if-match": '"cart-1"' }, withInstructions("control"));
    expect(added.result.status, added.result.body).toBe(200);
    const session = await control("ordering-session", { locationId: cart.locationId }, {}, { fulfillmentMethod: "takeout" });
    expect(session.result.status, session.result.body).toBe(201);
    expect([added, session].map(costOf)).toEqual([
      { sent: 5, roundTrips: 2 },
      { sent: 5, roundTrips: 2 },
    ]);
  });
});

describe("GET cart", () => {
  it("reads the cart in one statement, at 0 and at 5 lines", async () => {
    const cart = await startCart(app);
    const read = () => counted(() => app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } }));
    const empty = await read();
    for (let line = 0; line < 5; line += 1) await addLine(cart, `line ${line}`);
    const full = await read();
    expect(full.result.status, full.result.text).toBe(200);
    expect((full.result.body as { items: unknown[] }).items).toHaveLength(5);
    expect([empty.statements, full.statements]).toEqual([1, 1]);
  });

  it("sends two more statements (the location and the cart's products) once a publication moved the catalog on, and shows what changed", async () => {
    const cart = await startCart(app);
    await addLine(cart, "priced before the publication");
    const read = () => counted(() => app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } }));
    const unchanged = await read();
    expect(unchanged.statements).toBe(1);
    expect((unchanged.result.body as { catalogRevalidation: unknown }).catalogRevalidation).toBeNull();
    await publish(app.deps.database.db, HARBOR.locationId, [{ kind: "modifierOptionPrice", productId: chowderCup.productId, groupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl", priceMinor: 555 }]);
    const moved = await read();
    expect(moved.result.status, moved.result.text).toBe(200);
    expect(moved.statements).toBe(3);
    expect((moved.result.body as { catalogRevalidation: unknown }).catalogRevalidation).toMatchObject({ required: true, reasonCodes: ["PRICE_CHANGED"] });
  });
});

describe("the service's Postgres client", () => {
  it("prepares each statement once per connection and reuses it (one round trip, no parse), although drizzle asks for none", async () => {
    const url = databaseUrlOf(database);
    if (!url) throw new Error("no URL for the Postgres test database");
    // One pooled connection, opened as the service opens its own (db/open.ts), so the session below is the one that served.
    const handle = await openPostgres(url, { DATABASE_POOL_MAX: 1, DATABASE_PREPARE: true, DATABASE_CONNECT_TIMEOUT_SECONDS: 5, DATABASE_STATEMENT_TIMEOUT_MS: 10_000 });
    const served = await createTestApp({ database: handle });
    try {
      const cart = await startCart(served);
      for (const instructions of ["one", "two", "one"]) {
        const added = await mutate(served, cart, "POST", "/items", withInstructions(instructions), { "Idempotency-Key": idemKey() });
        expect(added.status, added.text).toBe(200);
      }
      const prepared = await queryRows<{ statement: string }>(handle.db, sql`select statement from pg_prepared_statements`);
      const cartReads = prepared.filter(({ statement }) => statement.includes("from carts c join locations l"));
      const keyClaims = prepared.filter(({ statement }) => statement.includes("pg_try_advisory_xact_lock"));
      // Three adds, each statement prepared once: unprepared, the view would hold none of them.
      expect(cartReads).toHaveLength(1);
      expect(keyClaims).toHaveLength(1);
    } finally {
      await served.close();
      await handle.close();
    }
  });
});
