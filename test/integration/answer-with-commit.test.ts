import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import { chowderCup } from "../checkout-helpers";
import { createTestApp, idemKey, mutate, startCart, type TestApp } from "../harness";

/**
 * A write's stored answer goes to Postgres with its COMMIT, in one round trip
 * (server/services/idempotency.ts, db/last-statement.ts), so the COMMIT is sent before the answer's
 * statement is known to have worked. Two things keep that whole-or-nothing:
 * - a statement that fails aborts the transaction, and the COMMIT after it rolls everything back;
 * - migration 0005 refuses to commit a claimed record without its answer.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/** The SQLSTATE of a database error, wherever the driver or drizzle put it. */
function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

const recordsOf = async (key: string) => queryRows<{ status_code: number }>(app.deps.database.db, sql`select status_code from idempotency_records where key = ${key}`);

describe("a claimed Idempotency-Key record (migration 0005)", () => {
  const claim = (key: string) =>
    sql`insert into idempotency_records (scope, operation, key, request_fingerprint, status_code, response_sealed, response_headers, expires_at)
      values ('test:answered-at-commit', 'test', ${key}, 'fingerprint', 0, '', '{}'::jsonb, now() + interval '1 hour')`;

  it("cannot be committed without its answer: the commit fails and keeps nothing of the transaction", async () => {
    const key = idemKey();
    const failure = await app.deps.database.db
      .transaction(async (tx) => {
        await tx.execute(claim(key));
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(sqlState(failure)).toBe("23514");
    expect(await recordsOf(key)).toEqual([]);
  });

  it("commits once its answer is written over the claim", async () => {
    const key = idemKey();
    await app.deps.database.db.transaction(async (tx) => {
      await tx.execute(claim(key));
      await tx.execute(sql`update idempotency_records set status_code = 200, response_sealed = 'answer' where scope = 'test:answered-at-commit' and key = ${key}`);
    });
    expect(await recordsOf(key)).toEqual([{ status_code: 200 }]);
  });
});

describe("an add item whose stored answer fails at the server", () => {
  it("changes nothing and keeps no record; the same request then runs once", async () => {
    const db = app.deps.database.db;
    const cart = await startCart(app);
    expect((await mutate(app, cart, "POST", "/items", chowderCup)).status).toBe(200);
    const before = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });

    // Fails only the answer of this key, so files sharing the database are not touched.
    const key = `fail-answer-${randomBytes(12).toString("hex")}`;
    const trigger = `test_fail_answer_${randomBytes(6).toString("hex")}`;
    await db.execute(sql.raw(`create function ${trigger}() returns trigger language plpgsql as $$ begin raise exception 'test: this answer cannot be stored'; end $$`));
    await db.execute(sql.raw(`create trigger ${trigger} before update on idempotency_records for each row when (new.status_code <> 0 and new.key = '${key}') execute function ${trigger}()`));
    const headers = { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key };
    const send = () => app.call("POST", `/locations/${cart.locationId}/carts/${cart.cartId}/items`, { headers, body: chowderCup });
    let failed;
    try {
      failed = await send();
    } finally {
      await db.execute(sql.raw(`drop trigger ${trigger} on idempotency_records`));
      await db.execute(sql.raw(`drop function ${trigger}()`));
    }
    expect(failed.status, failed.text).toBe(500);
    expect(failed.text).not.toContain("cannot be stored");
    const after = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } });
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.text).toBe(before.text);
    expect(await recordsOf(key)).toEqual([]);

    const retried = await send();
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(retried.headers.get("etag")).toBe('"cart-2"');
    const replayed = await send();
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.text).toBe(retried.text);
    expect(await recordsOf(key)).toEqual([{ status_code: 200 }]);
  });
});
