import { migrate as runMigrations } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import { openPglite } from "../../db/open";
import { migrationsFolder } from "../../db/migrations-path";
import { migrationsBefore } from "../migration-helpers";
import { queryRows } from "../../db/rows";
import { sql } from "drizzle-orm";

/**
 * Migration 0004 makes (scope, key) the idempotency records' primary key. Before it, one caller's key
 * could hold an expired record of one operation and a live one of another: the migration keeps the
 * newest of each (scope, key), and a database holding such pairs migrates.
 */

describe("migration 0004 (one idempotency record per caller and key)", () => {
  it("keeps the newest record of each (scope, key) and migrates a database that held two", async () => {
    const handle = await openPglite("memory://");
    try {
      await runMigrations(handle.db as never, { migrationsFolder: migrationsBefore("0004_idempotency_claim_by_scope_key") });
      await handle.db.execute(sql`
        insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, created_at, expires_at) values
          ('cart:a', 'carts.addItem', 'key-0000000000000001', 'f1', 200, 'old', '{}', now() - interval '3 days', now() - interval '1 day'),
          ('cart:a', 'carts.setGratuity', 'key-0000000000000001', 'f2', 200, 'new', '{}', now(), now() + interval '1 day'),
          ('cart:b', 'carts.addItem', 'key-0000000000000001', 'f3', 200, 'other caller', '{}', now(), now() + interval '1 day')`);
      await runMigrations(handle.db as never, { migrationsFolder: migrationsFolder() });
      const rows = await queryRows<{ scope: string; operation: string; response_sealed: string }>(
        handle.db,
        sql`select scope, operation, response_sealed from idempotency_records order by scope`,
      );
      expect(rows).toEqual([
        { scope: "cart:a", operation: "carts.setGratuity", response_sealed: "new" },
        { scope: "cart:b", operation: "carts.addItem", response_sealed: "other caller" },
      ]);
      const duplicate = handle.db.execute(sql`
        insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, expires_at)
        values ('cart:a', 'carts.addItem', 'key-0000000000000001', 'f4', 200, 'x', '{}', now())`);
      // 23505: unique_violation, from the new primary key (Drizzle wraps the driver's error as its cause).
      await expect(duplicate).rejects.toMatchObject({ cause: { code: "23505" } });
    } finally {
      await handle.close();
    }
  });
});
