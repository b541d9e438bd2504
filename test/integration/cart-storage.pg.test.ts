import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import type { DatabaseHandle } from "../../db/client";
import { createTestApp, mutate, openTestDatabase, startCart, type TestApp } from "../harness";

/**
 * How a cart's growing parts are stored (migrations 0006 and 0008): its lines as rows of `cart_lines`,
 * one per line, each as json (the text as the service wrote it); the cart's priced totals as json,
 * compressed with lz4 when large. Postgres only: PGlite is built without lz4 and keeps pglz (the
 * migration allows for that), which the rest of the suite runs on.
 */
let app: TestApp;
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase("postgres");
  app = await createTestApp({ database });
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const dish = (variant: number) => ({ productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], specialInstructions: `no lemon, table ${variant}`, itemUnavailableAction: "remove_item" });

describe("a cart's lines and priced totals", () => {
  it("are json: the totals on the cart row (compressed with lz4), each line with its priced form in a row of its own", async () => {
    const columns = await queryRows<{ name: string; type: string; compression: string }>(
      app.deps.database.db,
      sql`select attrelid::regclass::text || '.' || attname as name, format_type(atttypid, atttypmod) as type, attcompression as compression
          from pg_attribute where (attrelid = 'carts'::regclass and attname in ('lines', 'priced'))
             or (attrelid = 'cart_lines'::regclass and attname in ('line', 'priced')) order by 1`,
    );
    expect(columns).toEqual([
      { name: "cart_lines.line", type: "json", compression: "" },
      { name: "cart_lines.priced", type: "json", compression: "" },
      { name: "carts.priced", type: "json", compression: "l" },
    ]);
  });

  it("a change writes the line rows it changes, and a large cart reads back as the cart the client was answered", async () => {
    const cart = await startCart(app);
    let etag = cart.etag;
    let answered: unknown;
    for (let variant = 0; variant < 40; variant += 1) {
      const added = await mutate(app, { ...cart, etag }, "POST", "/items", dish(variant));
      expect(added.status).toBe(200);
      etag = added.headers.get("etag") ?? "";
      answered = added.body;
    }
    const rows = () =>
      queryRows<{ line_id: string; seq: number; xmin: string }>(app.deps.database.db, sql`select line_id, seq, xmin::text as xmin from cart_lines where cart_id = ${cart.cartId} order by seq`);
    const before = await rows();
    const items = (answered as { items: { id: string }[] }).items;
    expect(before.map((row) => row.line_id)).toEqual(items.map((item) => item.id));
    expect(before.map((row) => row.seq)).toEqual(items.map((_, index) => index));

    // One line's quantity: its row alone is written again (a new xmin), the others are left as they were.
    const target = items[17]?.id ?? "";
    const changed = await mutate(app, { ...cart, etag }, "PATCH", `/cart-item/${target}/quantity`, { quantity: 3 });
    expect(changed.status, changed.text).toBe(200);
    etag = changed.headers.get("etag") ?? "";
    const after = await rows();
    expect(after.filter((row, index) => row.xmin !== before[index]?.xmin).map((row) => row.line_id)).toEqual([target]);

    // A line removed: its row goes, the others keep their place; a new line goes after the last.
    const removed = await mutate(app, { ...cart, etag }, "PATCH", `/cart-item/${items[3]?.id ?? ""}/quantity`, { quantity: 0 });
    expect(removed.status, removed.text).toBe(200);
    const added = await mutate(app, { ...cart, etag: removed.headers.get("etag") ?? "" }, "POST", "/items", dish(99));
    expect(added.status, added.text).toBe(200);
    const last = await rows();
    expect(last).toHaveLength(40);
    expect(last.map((row) => row.line_id)).toEqual((added.body as { items: { id: string }[] }).items.map((item) => item.id));
    expect(last.at(-1)?.seq).toBe(40);

    const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(added.body);
  });
});
