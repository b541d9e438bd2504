import { sql } from "drizzle-orm";
import { migrate as runMigrations } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import { openPglite } from "../../db/open";
import { migrationsFolder } from "../../db/migrations-path";
import { migrationsBefore } from "../migration-helpers";
import { queryRows } from "../../db/rows";
import { seedDemoData } from "../../db/seed";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, HARBOR, mutate, openTestDatabase, startCart } from "../harness";

/**
 * Migration 0008 moves each cart's lines from a JSON array on the cart row to rows of `cart_lines`,
 * and each priced line with its line. A cart stored the old way must read, after the migration, as
 * the same cart: made here by the service, written back in the old layout into a database migrated
 * up to 0007, then migrated.
 */
const calamari = { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" };

describe("migration 0008 (a cart's lines as rows)", () => {
  it("reads a cart stored as one lines array as the same cart, its lines in their order with their priced forms", async () => {
    // The cart, made by the service: three lines, the first of them removed, so the two left are not at their first places.
    const current = await createTestApp({ database: await openTestDatabase("pglite") });
    const cart = await startCart(current, HARBOR.locationId);
    let etag = cart.etag;
    for (const item of [chowderCup, calamari, { ...calamari, specialInstructions: "extra lemon" }]) {
      const added = await mutate(current, { ...cart, etag }, "POST", "/items", item);
      expect(added.status, added.text).toBe(200);
      etag = added.headers.get("etag") ?? "";
    }
    const read = () => current.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    const firstId = ((await read()).body as { items: { id: string }[] }).items[0]?.id ?? "";
    const removed = await mutate(current, { ...cart, etag }, "PATCH", `/cart-item/${firstId}/quantity`, { quantity: 0 });
    expect(removed.status, removed.text).toBe(200);
    const answered = await read();
    expect((answered.body as { items: unknown[] }).items).toHaveLength(2);

    // The same row as 0007 stored it: `lines` on the cart row, the priced lines inside `priced`.
    const [oldRow] = await queryRows<{ row: unknown }>(
      current.deps.database.db,
      sql`select to_jsonb(c) || jsonb_build_object(
            'lines', (select jsonb_agg(l.line::jsonb order by l.seq) from cart_lines l where l.cart_id = c.id),
            'priced', c.priced::jsonb || jsonb_build_object('lines', (select jsonb_agg(l.priced::jsonb order by l.seq) from cart_lines l where l.cart_id = c.id))) as row
          from carts c where c.id = ${cart.cartId}`,
    );
    await current.close();

    const old = await openPglite("memory://");
    await runMigrations(old.db as never, { migrationsFolder: migrationsBefore("0008_cart_lines_as_rows") });
    await seedDemoData(old.db);
    await old.db.execute(sql`insert into carts select * from jsonb_populate_record(null::carts, ${JSON.stringify(oldRow?.row)}::jsonb)`);
    await runMigrations(old.db as never, { migrationsFolder: migrationsFolder() });

    const migrated = await createTestApp({ database: old });
    try {
      const [stored] = await queryRows<{ priced_keys: string[] }>(old.db, sql`select array(select json_object_keys(priced)) as priced_keys from carts where id = ${cart.cartId}`);
      expect(stored?.priced_keys).not.toContain("lines");
      const after = await migrated.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
      expect(after.status, after.text).toBe(200);
      expect(after.body).toEqual(answered.body);
      // And it changes as any cart: its next line goes after the two it has.
      const added = await mutate(migrated, { ...cart, etag: after.headers.get("etag") ?? "" }, "POST", "/items", chowderCup);
      expect(added.status, added.text).toBe(200);
      const ids = (body: unknown) => (body as { items: { id: string }[] }).items.map((item) => item.id);
      expect(ids(added.body).slice(0, 2)).toEqual(ids(answered.body));
      expect(ids(added.body)).toHaveLength(3);
    } finally {
      await migrated.close();
    }
  });
});
