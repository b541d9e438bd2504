import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzleSql, fragment, rawFragment } from "../../db/fragment";
import { projection } from "../../db/projection";
import { queryRows } from "../../db/rows";
import { carts, idempotencyRecords, locations, merchants } from "../../db/schema";
import { insertClause, setClause } from "../../db/write-clauses";
import { createTestApp, HARBOR, startCart, type TestApp } from "../harness";

/**
 * The hot path reads and writes carts with statements written once from the schema (db/projection.ts,
 * db/write-clauses.ts) instead of Drizzle's builders. They must give exactly the rows Drizzle gives, on
 * both drivers: every column, nulls, JSON, timestamps and bigint-as-number included.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const db = () => app.deps.database.db;

/** Every nullable column of a cart given a value, so each column's decoding is exercised. */
const everyColumnSet = {
  customerId: "cus_projection",
  marketplaceId: "mkt_1",
  discount: { code: "WELCOME10", rate: "0.1", amountMinor: null, minimumSubtotalMinor: 0 },
  gratuity: { kind: "amount", amountMinor: 250 },
  courierTipMinor: 9_007_199_254_740_991,
  deliveryInfo: { street: "1 Harbor Way", note: "ring \"twice\" \\ then wait", emoji: "🚪" },
  deliveryQuote: { quoteId: "q_1", feeMinor: 499 },
  tableServiceInfo: { table: "12" },
  roomServiceInfo: { room: "401" },
  metadata: { nested: { list: [1, "two", null, true] } },
  quoteFingerprint: "fp",
  quoteExpiresAt: new Date("2026-11-25T10:11:12.345Z"),
  catalogRevalidation: { changes: [] },
  lockedAt: new Date("2026-11-25T09:00:00.001Z"),
} as const;

async function readWithProjection(cartId: string, options: { jsonAsText?: boolean } = {}) {
  const columns = projection(carts, "c", "p_", options);
  const [row] = await queryRows<Record<string, unknown>>(db(), sql`select ${sql.raw(columns.text)} from carts c where c.id = ${cartId}`);
  if (!row) throw new Error("no row");
  return columns.read(row);
}

async function readWithDrizzle(cartId: string) {
  const [row] = await db().select().from(carts).where(eq(carts.id, cartId));
  return row;
}

describe("a projection reads the row Drizzle's select reads", () => {
  it("for a new cart, its nullable columns null", async () => {
    const { cartId } = await startCart(app);
    const ours = await readWithProjection(cartId);
    expect(ours).toEqual(await readWithDrizzle(cartId));
    expect(ours.customerId).toBeNull();
    expect(ours.createdAt).toBeInstanceOf(Date);
  });

  it("for a cart with every column set", async () => {
    const { cartId } = await startCart(app);
    // Drizzle's own update types the JSON columns by the domain; this row only exercises decoding.
    await db().update(carts).set(everyColumnSet as unknown as Partial<typeof carts.$inferInsert>).where(eq(carts.id, cartId));
    const ours = await readWithProjection(cartId);
    expect(ours).toEqual(await readWithDrizzle(cartId));
    expect(ours.courierTipMinor).toBe(9_007_199_254_740_991);
    expect(ours.quoteExpiresAt?.toISOString()).toBe("2026-11-25T10:11:12.345Z");
    expect(ours.deliveryInfo).toEqual(everyColumnSet.deliveryInfo);
  });

  it("with its JSON columns selected as text, parsed when read", async () => {
    const { cartId } = await startCart(app);
    await db().update(carts).set(everyColumnSet as unknown as Partial<typeof carts.$inferInsert>).where(eq(carts.id, cartId));
    const columns = projection(carts, "c", "p_", { jsonAsText: true });
    expect(columns.text).toContain(`c."priced"::text as "p_priced"`);
    expect(columns.text).toContain(`c."delivery_info"::text as "p_delivery_info"`);
    expect(columns.text).toContain(`c."revision" as "p_revision"`);
    const [row] = await queryRows<Record<string, unknown>>(db(), sql`select ${sql.raw(columns.text)} from carts c where c.id = ${cartId}`);
    expect(typeof row?.p_metadata).toBe("string");
    expect(await readWithProjection(cartId, { jsonAsText: true })).toEqual(await readWithDrizzle(cartId));
  });

  it("for a location and its merchant, read in one statement under prefixes", async () => {
    const location = projection(locations, "l", "l_");
    const merchant = projection(merchants, "m", "m_");
    const [row] = await queryRows<Record<string, unknown>>(
      db(),
      sql`select ${sql.raw(`${location.text}, ${merchant.text}`)} from locations l join merchants m on m.id = l.merchant_id where l.id = ${HARBOR.locationId}`,
    );
    if (!row) throw new Error("no row");
    const [expected] = await db().select({ location: locations, merchant: merchants }).from(locations).innerJoin(merchants, eq(merchants.id, locations.merchantId)).where(eq(locations.id, HARBOR.locationId));
    expect({ location: location.read(row), merchant: merchant.read(row) }).toEqual(expected);
  });
});

describe("write clauses write what Drizzle's .set() and .values() write", () => {
  it("for every column of a cart, nulls and undefined included", async () => {
    const [first, second] = [await startCart(app), await startCart(app)];
    const values = { ...everyColumnSet, discount: null, revision: 7, updatedAt: new Date("2026-11-25T12:00:00.000Z"), metadata: undefined } as unknown as Partial<typeof carts.$inferInsert>;
    await db().update(carts).set(values).where(eq(carts.id, first.cartId));
    await queryRows(db(), drizzleSql(fragment`update carts set ${setClause(carts, values)} where id = ${second.cartId}`));
    const [drizzles, ours] = [await readWithDrizzle(first.cartId), await readWithDrizzle(second.cartId)];
    const differing = (row: typeof drizzles) => ({ ...row, id: "", tokenHash: "", createdAt: null, expiresAt: null });
    expect(differing(ours)).toEqual(differing(drizzles));
    expect(ours?.metadata).toBeNull();
    expect(ours?.revision).toBe(7);
  });

  it("inserts the row Drizzle's .values() inserts, columns left out taking their defaults", async () => {
    const [drizzles] = await db().select().from(carts).where(eq(carts.id, (await startCart(app)).cartId));
    if (!drizzles) throw new Error("no cart");
    const { createdAt: _createdAt, updatedAt: _updatedAt, revision: _revision, ...given } = { ...drizzles, ...everyColumnSet, tokenHash: null, metadata: undefined };
    const copies = [{ ...given, id: "cart_projection_drizzle" }, { ...given, id: "cart_projection_clause" }] as unknown as (typeof carts.$inferInsert)[];
    await db().insert(carts).values(copies[0]!);
    const [returned] = await queryRows<Record<string, unknown>>(db(), drizzleSql(fragment`insert into carts as c ${insertClause(carts, copies[1]!)} returning ${rawFragment(projection(carts, "c").text)}`));
    const [byDrizzle, byClause] = [await readWithDrizzle("cart_projection_drizzle"), await readWithDrizzle("cart_projection_clause")];
    const comparable = (row: typeof byDrizzle) => ({ ...row, id: "", createdAt: null, updatedAt: null });
    expect(comparable(byClause)).toEqual(comparable(byDrizzle));
    expect(byClause?.revision).toBe(0);
    expect(byClause?.metadata).toBeNull();
    expect(projection(carts, "c").read(returned ?? {})).toEqual(byClause);
  });

  it("refuses a field that is not a column, and an empty change", () => {
    expect(() => setClause(idempotencyRecords, { answer: 1 } as never)).toThrow(/answer is not a column/);
    expect(() => setClause(carts, { metadata: undefined })).toThrow(/nothing to write/);
    expect(() => insertClause(carts, { metadata: undefined } as never)).toThrow(/nothing to write/);
  });
});
