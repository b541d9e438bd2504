import type { Sql, TransactionSql } from "postgres";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { boundedClient } from "./bounded-client";
import { poolAdmission } from "./pool-admission";

/**
 * The bounded client against a stand-in for the driver whose queries settle when the test says: what
 * it hands the driver, when, and what the caller sees. Real-driver behaviour under faults is in
 * test/integration/db-faults.pg.test.ts and pool.pg.test.ts.
 */
const BOUNDS = { queueTimeoutMs: 1_000, statementTimeoutMs: 3_000 };
const ANSWER_BOUND_MS = BOUNDS.statementTimeoutMs + 2_000;

type Sent = { query: string; options: unknown; resolve: (rows: unknown) => void; reject: (error: unknown) => void };

function fakeDriver(max: number, preparation = { prepare: true }) {
  const sent: Sent[] = [];
  const begun: string[] = [];
  const unsafe = (query: string, _parameters?: unknown[], options?: unknown) => {
    let resolve!: (rows: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    sent.push({ query, options, resolve, reject });
    return Object.assign(promise, { values: () => promise });
  };
  const begin = (body: (sql: TransactionSql) => unknown) => {
    begun.push("begin");
    return Promise.resolve(body({ unsafe, savepoint: () => Promise.resolve() } as unknown as TransactionSql));
  };
  const client = { options: { max }, unsafe, begin } as unknown as Sql;
  return { client: boundedClient(client, BOUNDS, preparation), sent, begun };
}

/** What a pending call ended with, without an unhandled rejection while the test waits. */
function outcome(pending: PromiseLike<unknown>) {
  const result: { value?: unknown; error?: { code?: string } } = {};
  Promise.resolve(pending).then(
    (value) => (result.value = value),
    (error: unknown) => (result.error = error as { code?: string }),
  );
  return result;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("bounded client: admission to the pool", () => {
  it("hands the driver no more queries than it has connections; a query not admitted in time fails and is never sent", async () => {
    const { client, sent } = fakeDriver(1);
    const first = outcome(client.unsafe("select 1"));
    const second = outcome(client.unsafe("select 2"));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((query) => query.query)).toEqual(["select 1"]);

    await vi.advanceTimersByTimeAsync(BOUNDS.queueTimeoutMs);
    expect(second.error?.code).toBe("DATABASE_QUEUE_TIMEOUT");
    sent[0]!.resolve(["one"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(first.value).toEqual(["one"]);
    // Given up before it had a connection: the driver never saw it, not even once the connection was free.
    expect(sent.map((query) => query.query)).toEqual(["select 1"]);
  });

  it("admits waiting queries in arrival order as connections free up", async () => {
    const { client, sent } = fakeDriver(1);
    const results = ["select 1", "select 2", "select 3"].map((query) => outcome(client.unsafe(query)));
    for (let index = 0; index < 3; index += 1) {
      await vi.advanceTimersByTimeAsync(100);
      expect(sent.map((query) => query.query)).toEqual(["select 1", "select 2", "select 3"].slice(0, index + 1));
      sent[index]!.resolve([index]);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(results.map((result) => result.value)).toEqual([[0], [1], [2]]);
  });

  it("keeps the connection counted until the driver is done, even after the caller had its deadline", async () => {
    const { client, sent } = fakeDriver(1);
    const hung = outcome(client.unsafe("select pg_sleep(60)"));
    await vi.advanceTimersByTimeAsync(ANSWER_BOUND_MS);
    expect(hung.error?.code).toBe("DATABASE_UNRESPONSIVE");

    // The driver still holds its only connection for the unanswered query: the next one waits for it.
    const next = outcome(client.unsafe("select 2"));
    await vi.advanceTimersByTimeAsync(BOUNDS.queueTimeoutMs / 2);
    expect(sent).toHaveLength(1);
    sent[0]!.reject(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((query) => query.query)).toEqual(["select pg_sleep(60)", "select 2"]);
    sent[1]!.resolve(["two"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(next.value).toEqual(["two"]);
  });

  it("a transaction not admitted in time fails and never begins; one admitted runs, then frees its connection", async () => {
    const { client, sent, begun } = fakeDriver(1);
    const held = outcome(client.unsafe("select 1"));
    await vi.advanceTimersByTimeAsync(0);
    const transaction = outcome(client.begin((sql) => sql.unsafe("update carts set revision = revision + 1")));
    await vi.advanceTimersByTimeAsync(BOUNDS.queueTimeoutMs);
    expect(transaction.error?.code).toBe("DATABASE_QUEUE_TIMEOUT");
    sent[0]!.resolve([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(held.value).toEqual([]);
    expect(begun).toEqual([]);

    const admitted = outcome(client.begin((sql) => sql.unsafe("update carts set revision = revision + 1")));
    await vi.advanceTimersByTimeAsync(0);
    expect(begun).toEqual(["begin"]);
    sent[1]!.resolve(["updated"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(admitted.value).toEqual(["updated"]);
    const after = outcome(client.unsafe("select 3"));
    await vi.advanceTimersByTimeAsync(0);
    sent[2]!.resolve(["three"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(after.value).toEqual(["three"]);
  });
});

/**
 * A driver whose transactions end as the test says: each try's statements settle when told, and
 * `close` fails the try as the driver does when it sees its connection close. `startBody(n)`: whether
 * try n runs its body at once (else `run`); `endsWithBody`: whether a try ends when its body does
 * (else only `close` ends it, as when the connection is lost during the ROLLBACK). `bodyEnded` says
 * whether the body's promise settled: the driver sends its COMMIT or ROLLBACK then.
 */
function lossyDriver(options: { startBody?: (attempt: number) => boolean; endsWithBody?: boolean } = {}) {
  const tries: { sent: Sent[]; close: (error: unknown) => void; run: () => void; bodyEnded: boolean }[] = [];
  const begin = (body: (sql: TransactionSql) => unknown) =>
    new Promise((resolve, reject) => {
      const sent: Sent[] = [];
      const unsafe = (query: string, _parameters?: unknown[], queryOptions?: unknown) => {
        let settle!: Pick<Sent, "resolve" | "reject">;
        const promise = new Promise((ok, fail) => (settle = { resolve: ok, reject: fail }));
        sent.push({ query, options: queryOptions, ...settle });
        return Object.assign(promise, { values: () => promise });
      };
      const attempt = { sent, close: reject, bodyEnded: false, run: () => undefined as void };
      attempt.run = () => {
        const ran = Promise.resolve(body({ unsafe, savepoint: () => Promise.resolve() } as unknown as TransactionSql));
        ran.then(
          () => (attempt.bodyEnded = true),
          () => (attempt.bodyEnded = true),
        );
        if (options.endsWithBody ?? true) ran.then(resolve, reject);
      };
      tries.push(attempt);
      if (options.startBody?.(tries.length - 1) ?? true) attempt.run();
    });
  const client = { options: { max: 1 }, unsafe: () => Promise.reject(new Error("not in this test")), begin } as unknown as Sql;
  return { client: boundedClient(client, BOUNDS, { prepare: true }), tries };
}

const connectionReset = () => Object.assign(new Error("write ECONNRESET"), { code: "ECONNRESET" });

describe("bounded client: a transaction's lost connection", () => {
  it("runs the transaction once more when its connection was lost before any statement was answered", async () => {
    const { client, tries } = lossyDriver();
    const transaction = outcome(client.begin(async (sql) => [await sql.unsafe("insert into marks values (1)"), await sql.unsafe("select count(*) from marks")]));
    await vi.advanceTimersByTimeAsync(0);
    tries[0]!.sent[0]!.reject(connectionReset());
    tries[0]!.close(connectionReset());
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(2);
    // The first try sends nothing more: its body is left waiting, never run on.
    expect(tries[0]!.sent.map((query) => query.query)).toEqual(["insert into marks values (1)"]);
    tries[1]!.sent[0]!.resolve(["inserted"]);
    await vi.advanceTimersByTimeAsync(0);
    tries[1]!.sent[1]!.resolve(["one"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(transaction.value).toEqual([["inserted"], ["one"]]);
  });

  it("fails without running again once a statement was answered, or on the second lost connection", async () => {
    const answered = lossyDriver();
    const afterAnswer = outcome(answered.client.begin(async (sql) => [await sql.unsafe("select 1"), await sql.unsafe("select 2")]));
    await vi.advanceTimersByTimeAsync(0);
    answered.tries[0]!.sent[0]!.resolve(["one"]);
    await vi.advanceTimersByTimeAsync(0);
    answered.tries[0]!.sent[1]!.reject(connectionReset());
    answered.tries[0]!.close(connectionReset());
    await vi.advanceTimersByTimeAsync(0);
    expect(answered.tries).toHaveLength(1);
    expect(afterAnswer.error?.code).toBe("ECONNRESET");

    const twice = lossyDriver();
    const lostTwice = outcome(twice.client.begin((sql) => sql.unsafe("select 1")));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await vi.advanceTimersByTimeAsync(0);
      twice.tries[attempt]!.sent[0]!.reject(connectionReset());
      twice.tries[attempt]!.close(connectionReset());
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(twice.tries).toHaveLength(2);
    expect(lostTwice.error?.code).toBe("ECONNRESET");
  });
});

describe("bounded client: a retried transaction", () => {
  it("a try lost before its body started runs again with a bound of its own: the first try's bound does not end it", async () => {
    const { client, tries } = lossyDriver({ startBody: (attempt) => attempt > 0 });
    const transaction = outcome(client.begin((sql) => sql.unsafe("select 1")));
    await vi.advanceTimersByTimeAsync(BOUNDS.queueTimeoutMs * 0.6);
    tries[0]!.close(connectionReset());
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(2);
    // Past the first try's bound, the second try's statement is still awaited, not given up.
    await vi.advanceTimersByTimeAsync(BOUNDS.queueTimeoutMs * 0.6);
    expect(transaction.error).toBeUndefined();
    tries[1]!.sent[0]!.resolve(["one"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(transaction.value).toEqual(["one"]);
  });

  it("a body that saw a statement fail is not run again when the connection is lost during its ROLLBACK", async () => {
    const { client, tries } = lossyDriver({ endsWithBody: false });
    const transaction = outcome(client.begin((sql) => sql.unsafe("select pg_advisory_xact_lock(1)")));
    await vi.advanceTimersByTimeAsync(0);
    tries[0]!.sent[0]!.reject(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }));
    await vi.advanceTimersByTimeAsync(0);
    tries[0]!.close(connectionReset());
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(1);
    expect(transaction.error?.code).toBe("ECONNRESET");
  });

  it("the first try's body, still running when the retry starts, ends stranded: the driver gets no COMMIT or ROLLBACK from it", async () => {
    const { client, tries } = lossyDriver();
    let external!: () => void;
    const outside = new Promise<void>((resolve) => (external = resolve));
    const transaction = outcome(
      client.begin(async (sql) => {
        await outside;
        return sql.unsafe("insert into marks values (1)");
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    tries[0]!.close(connectionReset());
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(2);
    external();
    await vi.advanceTimersByTimeAsync(0);
    expect(tries[0]!.sent).toEqual([]);
    expect(tries[0]!.bodyEnded).toBe(false);
    tries[1]!.sent[0]!.resolve(["inserted"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(transaction.value).toEqual(["inserted"]);
  });
});

describe("bounded client: statement preparation", () => {
  it("asks the driver for the configured preparation, whatever drizzle asked, in and out of transactions", async () => {
    for (const prepare of [true, false]) {
      const { client, sent } = fakeDriver(2, { prepare });
      // drizzle passes prepare: false for every query not given a name with .prepare(name).
      const outside = outcome(client.unsafe("select 1", [], { prepare: !prepare }));
      await vi.advanceTimersByTimeAsync(0);
      sent[0]!.resolve(["one"]);
      const inside = outcome(client.begin((tx) => tx.unsafe("select 2", [], { prepare: !prepare })));
      await vi.advanceTimersByTimeAsync(0);
      sent[1]!.resolve(["two"]);
      await vi.advanceTimersByTimeAsync(0);
      expect([outside.value, inside.value]).toEqual([["one"], ["two"]]);
      expect(sent.map((query) => query.options)).toEqual([{ prepare }, { prepare }]);
    }
  });
});

describe("pool admission", () => {
  it("counts a permit once however often it is released, and a withdrawn waiter is never admitted", () => {
    const admission = poolAdmission(1);
    const admitted: string[] = [];
    let releaseFirst = () => undefined as void;
    admission.enter((release) => {
      admitted.push("first");
      releaseFirst = release;
    });
    const withdrawSecond = admission.enter(() => admitted.push("second"));
    admission.enter((release) => {
      admitted.push("third");
      release();
    });
    withdrawSecond();
    releaseFirst();
    releaseFirst();
    admission.enter(() => admitted.push("fourth"));
    admission.enter(() => admitted.push("fifth"));
    expect(admitted).toEqual(["first", "third", "fourth"]);
  });
});
