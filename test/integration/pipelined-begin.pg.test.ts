import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client";
import { queryRows } from "../../db/rows";
import { postgresAddress } from "../db-fault-helpers";
import { startFaultProxy, type FaultProxy } from "../fault-proxy";
import { databaseUrlOf, openTestDatabase } from "../harness";

/**
 * The driver writes a transaction's BEGIN together with its first statements instead of waiting for
 * BEGIN's answer (patches/postgres+3.4.9.patch, "pipelined BEGIN"): one round trip less for every
 * transaction. What must still hold: the connection belongs to the transaction from BEGIN on (no other
 * query is sent on it, the hazard of the upstream attempt porsager/postgres#1211), and a transaction
 * that met a connection the server had already closed runs once more (db/bounded-client.ts), as a
 * lone BEGIN's retry used to give.
 */
let proxy: FaultProxy;
let database: DatabaseHandle;

beforeAll(async () => {
  proxy = await startFaultProxy(postgresAddress());
  database = await openTestDatabase("postgres", { via: proxy, settings: { DATABASE_POOL_MAX: 1 } });
});

afterAll(async () => {
  proxy?.restore();
  await database?.close();
  await proxy?.close();
});

const selectOne = () => database.db.transaction(async (tx) => queryRows<{ one: number }>(tx, sql`select 1 as one`));

describe("a transaction's round trips", () => {
  it("BEGIN goes with the first statement: a one-statement transaction takes two round trips, its COMMIT the second", async () => {
    expect(await selectOne()).toEqual([{ one: 1 }]);
    const before = proxy.roundTripsFromClients;
    // 5 ms each way: nothing the driver waits for comes back while it is still writing.
    proxy.delay(5);
    try {
      expect(await selectOne()).toEqual([{ one: 1 }]);
    } finally {
      proxy.restore();
    }
    expect(proxy.roundTripsFromClients - before).toBe(2);
  });
});

describe("the connection belongs to the transaction from its BEGIN on", () => {
  it.each([1, 2])("with a pool of %i, queries issued while a transaction runs never run inside it", async (max) => {
    const url = databaseUrlOf(database);
    if (!url) throw new Error("no database URL");
    const client = postgres(url, { max, onnotice: () => undefined });
    try {
      await client`select 1`;
      const outside: Promise<{ xid: string | null }[]>[] = [];
      // Sent at once (the driver's queries otherwise start when awaited), in the order they are made.
      const outsideQuery = () => client<{ xid: string | null }[]>`select txid_current_if_assigned()::text as xid`.execute();
      const inside = client.begin(async (tx) => {
        // The transaction takes an id with its first statement, which goes out behind BEGIN; the next
        // query is made while both are unanswered, the others once they are answered and later.
        const first = tx<{ xid: string | null }[]>`select txid_current()::text as xid`.execute();
        outside.push(outsideQuery());
        const [own] = await first;
        outside.push(outsideQuery());
        await new Promise((resolve) => setTimeout(resolve, 30));
        outside.push(outsideQuery());
        return own?.xid;
      });
      outside.push(outsideQuery());
      const xid = await inside;
      expect(xid).toMatch(/^\d+$/);
      // Every outside query ran in a transaction of its own, which never needed an id: null.
      for (const rows of await Promise.all(outside)) expect(rows).toEqual([{ xid: null }]);
    } finally {
      await client.end({ timeout: 5 });
    }
  });
});

describe("a BEGIN with options", () => {
  it("is still awaited: one that fails runs nothing of the body", async () => {
    const url = databaseUrlOf(database);
    if (!url) throw new Error("no database URL");
    const client = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await client`create table if not exists pipelined_begin_options (mark text)`;
      let ran = false;
      const failed = client.begin("isolation level bogus", async (tx) => {
        ran = true;
        await tx`insert into pipelined_begin_options (mark) values ('ran')`;
      });
      await expect(failed).rejects.toMatchObject({ code: "42601" });
      expect(ran).toBe(false);
      expect(await client`select count(*)::int as marks from pipelined_begin_options`).toEqual([{ marks: 0 }]);
      // A BEGIN with valid options runs its body as before.
      expect(await client.begin("isolation level serializable", (tx) => tx`select current_setting('transaction_isolation') as level`)).toEqual([{ level: "serializable" }]);
    } finally {
      await client.end({ timeout: 5 });
    }
  });
});

describe("a connection the server closed before anything was answered", () => {
  it("the transaction runs once more on a new connection and commits once", async () => {
    await database.db.execute(sql`create table if not exists pipelined_begin_marks (mark text primary key)`);
    expect(await selectOne()).toEqual([{ one: 1 }]);
    const acceptedBefore = proxy.acceptedConnections;
    // The pool's one connection is cut, and the transaction starts before the driver can have seen it.
    proxy.cutExisting();
    const written = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipelined_begin_marks (mark) values ('cut')`);
      return queryRows<{ marks: number }>(tx, sql`select count(*)::int as marks from pipelined_begin_marks`);
    });
    expect(written).toEqual([{ marks: 1 }]);
    expect(proxy.acceptedConnections).toBeGreaterThan(acceptedBefore);
    expect(await queryRows<{ marks: number }>(database.db, sql`select count(*)::int as marks from pipelined_begin_marks`)).toEqual([{ marks: 1 }]);
  });
});
