import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFloorSql, runFloorOperation, type FloorSql } from "../../bench/controls/floor-sql";
import type { ControlRequest } from "../../bench/controls/operations";
import { addItemBody } from "../../bench/scenarios/common";
import { createTestApp, databaseUrlOf, HARBOR, idemKey, openTestDatabase, type TestApp } from "../harness";

/**
 * The benchmark's floor (bench/controls/floor-sql.ts) answers correctly on the service's own tables:
 * Postgres only, because it talks to Postgres through postgres.js directly. Nothing here is timed.
 */
let app: TestApp;
let floor: FloorSql;
const statements: string[] = [];

beforeAll(async () => {
  const database = await openTestDatabase("postgres");
  app = await createTestApp({ database });
  const url = databaseUrlOf(database);
  if (!url) throw new Error("no URL for the Postgres test database");
  // One connection, warmed by one of each operation: postgres.js prepares a statement per connection
  // on its first use, and that extra round trip would count as a statement below.
  floor = openFloorSql(url, 1, (query) => statements.push(query));
  await call("floor-menus", "GET", { locationId: HARBOR.locationId });
  const warm = await call("floor-ordering-session", "POST", { locationId: HARBOR.locationId }, { "idempotency-key": idemKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
  const { cart, cartAccessToken } = warm.body as { cart: { id: string }; cartAccessToken: string };
  const ids = { locationId: HARBOR.locationId, cartId: cart.id };
  await call("floor-add-item", "POST", ids, { "x-cart-token": cartAccessToken, "if-match": '"cart-0"', "idempotency-key": idemKey() }, addItemBody(0));
  await call("floor-cart", "GET", ids, { "x-cart-token": cartAccessToken });
});
afterAll(async () => {
  await floor.end({ timeout: 1 });
  await app.close();
});

type Answer = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

async function call(operation: string, method: string, query: Record<string, string>, headers: Record<string, string> = {}, body = ""): Promise<Answer> {
  const request: ControlRequest = { method, operation, query: new URLSearchParams(query), headers: new Headers(headers), bodyText: body, clientIp: "203.0.113.10", origin: "http://localhost" };
  const result = await runFloorOperation(floor, request);
  return { status: result.status, headers: result.headers, body: JSON.parse(result.body) as Record<string, unknown> };
}

async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  statements.length = 0;
  const result = await run();
  return { result, statements: statements.length };
}

type Line = { productId: string; quantity: number; specialInstructions: string; selections: unknown[] };

describe("benchmark floor (bare SQL over postgres.js)", () => {
  it("serves the menu from the service's catalog rows", async () => {
    const rest = await app.call("GET", `/locations/${HARBOR.locationId}/menus`, { headers: { "cache-control": "no-cache" } });
    const { result: menus, statements: sent } = await counted(() => call("floor-menus", "GET", { locationId: HARBOR.locationId }));
    expect(menus.status).toBe(200);
    expect(sent).toBe(4);
    const productIds = (body: unknown) =>
      ((body as { menus: { categories: { products: { id: string }[] }[] }[] }).menus ?? []).flatMap((menu) => menu.categories.flatMap((category) => category.products.map((product) => product.id)));
    // The floor does not evaluate menu availability by time: it serves at least what the service serves.
    expect(productIds(menus.body)).toEqual(expect.arrayContaining(productIds(rest.body)));
    expect(productIds(menus.body).length).toBeGreaterThan(0);
    expect((await call("floor-menus", "GET", { locationId: "loc_nowhere" })).status).toBe(404);
    expect((await call("floor-menus", "POST", { locationId: HARBOR.locationId })).status).toBe(405);
  });

  it("opens a cart once per Idempotency-Key, adds, merges and reads lines with the token check", async () => {
    const key = idemKey();
    const sessionBody = JSON.stringify({ fulfillmentMethod: "takeout" });
    const { result: session, statements: sessionStatements } = await counted(() => call("floor-ordering-session", "POST", { locationId: HARBOR.locationId }, { "idempotency-key": key }, sessionBody));
    expect(session.status).toBe(201);
    expect(sessionStatements).toBe(6);
    expect(session.headers.etag).toBe('"cart-0"');
    const { cart, cartAccessToken } = session.body as { cart: { id: string }; cartAccessToken: string };
    expect(cartAccessToken).toMatch(/^ct_/);

    const replayed = await call("floor-ordering-session", "POST", { locationId: HARBOR.locationId }, { "idempotency-key": key }, sessionBody);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(session.body);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect((await call("floor-ordering-session", "POST", { locationId: HARBOR.locationId }, { "idempotency-key": key }, JSON.stringify({ fulfillmentMethod: "delivery" }))).status).toBe(422);

    const ids = { locationId: HARBOR.locationId, cartId: cart.id };
    const credential = { "x-cart-token": cartAccessToken };
    const addKey = idemKey();
    const { result: added, statements: addStatements } = await counted(() => call("floor-add-item", "POST", ids, { ...credential, "if-match": '"cart-0"', "idempotency-key": addKey }, addItemBody(0)));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(addStatements).toBe(7);
    expect(added.headers.etag).toBe('"cart-1"');
    const [row] = await floor<{ revision: string; lines: Line[] }[]>`
      select revision, (select coalesce(json_agg(l.line order by l.seq), '[]'::json) from cart_lines l where l.cart_id = c.id) as lines from carts c where id = ${cart.id}`;
    expect(Number(row?.revision)).toBe(1);
    expect(row?.lines).toHaveLength(1);
    expect(row?.lines[0]).toMatchObject({ productId: "prd_hk_smash_burger", quantity: 1, specialInstructions: "bench line 0" });
    expect(row?.lines[0]?.selections).toHaveLength(2);

    // The same key again: the stored answer, nothing changed.
    const again = await call("floor-add-item", "POST", ids, { ...credential, "if-match": '"cart-0"', "idempotency-key": addKey }, addItemBody(0));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(added.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");

    // A stale If-Match: 409, and the claim rolled back with it.
    const staleKey = idemKey();
    const stale = await call("floor-add-item", "POST", ids, { ...credential, "if-match": '"cart-0"', "idempotency-key": staleKey }, addItemBody(1));
    expect(stale.status).toBe(409);
    expect(stale.headers.etag).toBe('"cart-1"');
    expect(await floor`select 1 from idempotency_records where key = ${staleKey}`).toHaveLength(0);

    const second = await call("floor-add-item", "POST", ids, { ...credential, "if-match": '"cart-1"', "idempotency-key": idemKey() }, addItemBody(1));
    const merged = await call("floor-add-item", "POST", ids, { ...credential, "if-match": '"cart-2"', "idempotency-key": idemKey() }, addItemBody(0));
    expect([second.status, merged.status]).toEqual([200, 200]);
    expect(merged.headers.etag).toBe('"cart-3"');
    const lines = merged.body.lines as Line[];
    expect(lines.map((line) => [line.specialInstructions, line.quantity])).toEqual([
      ["bench line 0", 2],
      ["bench line 1", 1],
    ]);
    const priced = merged.body.priced as { subTotal: number; totalQuantity: number };
    expect(priced.totalQuantity).toBe(3);
    expect(priced.subTotal).toBeGreaterThan(0);

    const { result: read, statements: readStatements } = await counted(() => call("floor-cart", "GET", ids, credential));
    expect(read.status).toBe(200);
    expect(readStatements).toBe(1);
    expect(read.headers.etag).toBe('"cart-3"');
    expect(read.body).toEqual(merged.body);
    expect((await call("floor-cart", "GET", ids)).status).toBe(401);
    expect((await call("floor-cart", "GET", ids, { "x-cart-token": "ct_not_this_one" })).status).toBe(403);
    expect((await call("floor-cart", "GET", { ...ids, cartId: "cart_missing" }, credential)).status).toBe(404);
    expect((await call("floor-add-item", "POST", ids, { ...credential, "idempotency-key": idemKey() }, addItemBody(0))).status).toBe(428);
  });
});
