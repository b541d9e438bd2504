import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import type { DatabaseHandle } from "../../db/client";
import { createTestApp, mutate, openTestDatabase, startCart, type TestApp } from "../harness";

/**
 * How a cart's growing columns are stored (migration 0006): `lines` and `priced` as json, the text as
 * the service wrote it, so Postgres neither parses it into jsonb on every write nor prints it back on
 * every read; compressed with lz4 when large. Postgres only: PGlite is built without lz4 and keeps
 * pglz (the migration allows for that), which the rest of the suite runs on.
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
  it("are json columns compressed with lz4", async () => {
    const columns = await queryRows<{ name: string; type: string; compression: string }>(
      app.deps.database.db,
      sql`select attname as name, format_type(atttypid, atttypmod) as type, attcompression as compression
          from pg_attribute where attrelid = 'carts'::regclass and attname in ('lines', 'priced') order by attname`,
    );
    expect(columns).toEqual([
      { name: "lines", type: "json", compression: "l" },
      { name: "priced", type: "json", compression: "l" },
    ]);
  });

  it("a large cart's lines are stored with lz4 and read back as the cart the client was answered", async () => {
    const cart = await startCart(app);
    let etag = cart.etag;
    let answered: unknown;
    // 40 distinct lines (each its own instructions): well past the 2 KB from which Postgres compresses a value.
    for (let variant = 0; variant < 40; variant += 1) {
      const added = await mutate(app, { ...cart, etag }, "POST", "/items", dish(variant));
      expect(added.status).toBe(200);
      etag = added.headers.get("etag") ?? "";
      answered = added.body;
    }
    const [stored] = await queryRows<{ compression: string; lines: number }>(
      app.deps.database.db,
      sql`select pg_column_compression(lines) as compression, json_array_length(lines) as lines from carts where id = ${cart.cartId}`,
    );
    expect(stored).toEqual({ compression: "lz4", lines: 40 });
    const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answered);
  });
});
