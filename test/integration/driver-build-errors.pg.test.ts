import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import { fragment } from "../../db/fragment";
import { fragmentRows, queryRows } from "../../db/rows";
import { databaseUrlOf, openTestDatabase } from "../harness";

/**
 * A statement the driver cannot build (here an undefined parameter) fails by itself, at once, and leaves
 * its connection usable (patches/postgres+3.4.9.patch, item 7, "build before queueing"). Unpatched,
 * the driver failed the query then running on the connection instead and left the unbuilt one waiting
 * for an answer that never comes; with BEGIN pipelined (item 5), every transaction's first statement was
 * such a query. Upstream: porsager/postgres#1082 and #729.
 */
let database: DatabaseHandle;
let url: string;

beforeAll(async () => {
  database = await openTestDatabase("postgres", { settings: { DATABASE_POOL_MAX: 1 } });
  url = databaseUrlOf(database) ?? "";
});

afterAll(async () => {
  await database?.close();
});

/** How a promise ends within `ms`: the driver's error code, "resolved", or "pending" (it hung). */
function outcome(promise: Promise<unknown>, ms = 3_000): Promise<string> {
  const codeOf = (error: unknown): string => {
    if (typeof error !== "object" || error === null) return String(error);
    const { code, cause } = error as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    return cause === undefined ? (error instanceof Error ? error.message : "unknown") : codeOf(cause);
  };
  return Promise.race([
    promise.then(
      () => "resolved",
      (error: unknown) => `rejected ${codeOf(error)}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);
}

describe("the driver, one connection", () => {
  const withClient = async (use: (client: postgres.Sql) => Promise<void>) => {
    const client = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await client`select 1`;
      await use(client);
    } finally {
      await client.end({ timeout: 1 });
    }
  };

  it("a transaction whose first statement cannot be built fails with that error, and the next query runs", async () => {
    await withClient(async (client) => {
      expect(await outcome(client.begin((tx) => tx`select ${undefined as never}::int as x`))).toBe("rejected UNDEFINED_VALUE");
      expect(await outcome(client`select 1 as one`)).toBe("resolved");
      const [{ open } = { open: -1 }] = await client<{ open: number }[]>`select count(*)::int as open from pg_stat_activity where usename = current_user and state like 'idle in transaction%'`;
      expect(open).toBe(0);
    });
  });

  it("behind a query in flight, only the statement that cannot be built fails", async () => {
    await withClient(async (client) => {
      const [running, unbuilt] = await Promise.all([outcome(client`select pg_sleep(0.05), 1 as one`), outcome(client`select ${undefined as never}::int`)]);
      expect({ running, unbuilt }).toEqual({ running: "resolved", unbuilt: "rejected UNDEFINED_VALUE" });
    });
  });

  it("inside a transaction, a later statement that cannot be built fails it, and the next transaction runs", async () => {
    await withClient(async (client) => {
      expect(await outcome(client.begin(async (tx) => {
        await tx`select 1`;
        await tx`select ${undefined as never}::int`;
      }))).toBe("rejected UNDEFINED_VALUE");
      expect(await outcome(client.begin(async (tx) => tx`select 2 as two`))).toBe("resolved");
    });
  });
});

describe("the service's client (pool of one)", () => {
  it("a transaction whose first statement cannot be built fails at once with the driver's error, and the pool serves the next", async () => {
    const failed = await outcome(database.db.transaction(async (tx) => fragmentRows(tx, fragment`select ${undefined}::int as x`)));
    expect(failed).toBe("rejected UNDEFINED_VALUE");
    expect(await outcome(queryRows(database.db, sql`select 1 as one`))).toBe("resolved");
  });
});
