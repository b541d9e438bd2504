import { createHook } from "node:async_hooks";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import { databaseUrlOf, openTestDatabase } from "../harness";

/**
 * The driver sends a query from one microtask, not from an async function that awaits a constant
 * and is called again on every then() and catch() (patches/postgres+3.4.9.patch, "one microtask per
 * query"). Each promise made runs the init hook of every AsyncLocalStorage in the process (Next.js
 * keeps several), which a Next route pays for on every one: 7 promises per awaited query before, 4
 * now. What must still hold: a query is sent once, after the code that made it has run on (its
 * `.describe()`, `.values()`, a transaction's next statement), and answers as before.
 */
let database: DatabaseHandle;
let sql: postgres.Sql;

beforeAll(async () => {
  database = await openTestDatabase("postgres");
  const url = databaseUrlOf(database);
  if (!url) throw new Error("no URL for the Postgres test database");
  sql = postgres(url, { max: 1, onnotice: () => undefined });
  await sql`select 1`;
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.close();
});

async function promisesMadeBy(run: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === "PROMISE") made += 1;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

describe("a query's promises", () => {
  it("an awaited query makes 4 promises, not 7", async () => {
    const answers: unknown[] = [];
    const queries = (count: number) =>
      promisesMadeBy(async () => {
        for (let index = 0; index < count; index += 1) answers.push(await sql`select ${index}::int as n`);
      });
    // What 30 more queries make: the measuring's own promises taken off.
    const perQuery = ((await queries(40)) - (await queries(10))) / 30;
    expect(answers).toHaveLength(50);
    expect(answers.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, index) => [{ n: index }]));
    // 4 made by the query itself; the test runner adds a few of its own now and then (4.3 here, 7.3 unpatched).
    expect(perQuery).toBeLessThan(5);
  });

  it("sends a query once whatever is chained on it, after the code that made it has run on", async () => {
    const query = sql`select 1 as one`;
    // values() after the query was made, then()ed twice and caught: one statement, its rows as arrays.
    expect(query.values()).toBe(query);
    const [first, second] = await Promise.all([query, query.then((rows) => rows)]);
    void query.catch(() => undefined);
    expect(first).toEqual([[1]]);
    expect(second).toBe(first);
  });

  it("keeps a transaction's statements in the order they were issued", async () => {
    const seen = await sql.begin(async (tx) => {
      const [a, b, c] = await Promise.all([tx<{ n: number }[]>`select 1 as n`, tx<{ n: number }[]>`select 2 as n`, tx<{ n: number }[]>`select 3 as n`]);
      return [a, b, c].map((rows) => rows[0]?.n);
    });
    expect(seen).toEqual([1, 2, 3]);
  });
});
