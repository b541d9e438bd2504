import type { Sql, TransactionSql } from "postgres";
import { isErrorKind, markErrorKind } from "../server/error-kind";
import { poolAdmission, type PoolAdmission } from "./pool-admission";

/**
 * Deadlines the `postgres` driver does not have. It queues a query without limit when every pooled
 * connection is busy, and waits forever for the answer of a server that stopped answering (its
 * connect_timeout covers only the handshake, statement_timeout only a server that is alive). The
 * client handed to drizzle is wrapped here, so every query and transaction of the service is bounded
 * in one place:
 *
 * - queue: no more queries and transactions are handed to the driver at once than it has pooled
 *   connections (./pool-admission.ts), so the wait for a connection is ours. A query that has not
 *   been admitted within `queueTimeoutMs`, or a transaction whose body has not started within it,
 *   fails with DATABASE_QUEUE_TIMEOUT. One given up before admission never reaches the driver; a
 *   transaction given up after it never runs its body: it rolls back at once.
 * - answer: a statement the server has not answered within its own statement timeout plus a grace
 *   period fails with DATABASE_UNRESPONSIVE, and so does the transaction around it, at once (its
 *   rollback completes whenever the server answers again).
 * - lost connections: a transaction whose connection died (backend killed, server restarted) is
 *   given up at once and sends nothing more; a read, or a transaction none of whose statements was
 *   answered, that met a pooled connection the server had already closed runs once more, since
 *   nothing of it can have taken effect.
 *
 * Both codes map to 503 DEPENDENCY_UNAVAILABLE (server/errors-map.ts). The driver's own teardown
 * bugs are repaired at install time by patches/postgres+3.4.9.patch (patch-package).
 */
export type ClientBounds = { queueTimeoutMs: number; statementTimeoutMs: number };

/**
 * Whether statements are prepared on their connection (DATABASE_PREPARE), for every query that
 * passes here. Drizzle asks the driver for a prepared statement only for queries given a name with
 * its `.prepare(name)`, and `prepare: false` for all the others, which the driver then sends as a
 * Parse and Describe round trip followed by a Bind and Execute one: two round trips and a parse on
 * the server for every statement with parameters. Prepared, a statement text seen before on the
 * connection is one round trip (the driver keeps one per text and parameter types).
 */
export type StatementPreparation = { prepare: boolean };

/** The options drizzle gave for one query, with the service's preparation decision in place of its own. */
const withPreparation = (options: unknown, preparation: StatementPreparation) => ({ ...(options as object | undefined), prepare: preparation.prepare });

/** How long past its statement timeout a live server may still take to report the cancellation. */
const ANSWER_GRACE_MS = 2_000;

export type DeadlineCode = "DATABASE_QUEUE_TIMEOUT" | "DATABASE_UNRESPONSIVE" | "DATABASE_TRANSACTION_ABANDONED";

export class DatabaseDeadlineError extends Error {
  readonly code: DeadlineCode;
  constructor(code: DeadlineCode, message: string) {
    super(message);
    this.name = "DatabaseDeadlineError";
    markErrorKind(this, "DatabaseDeadlineError");
    this.code = code;
  }
}

const queueTimeout = (bounds: ClientBounds) =>
  new DatabaseDeadlineError("DATABASE_QUEUE_TIMEOUT", `no database connection became free within ${bounds.queueTimeoutMs} ms`);
const unresponsive = (bounds: ClientBounds) =>
  new DatabaseDeadlineError("DATABASE_UNRESPONSIVE", `the database did not answer within ${answerBoundMs(bounds)} ms`);
const abandoned = () => new DatabaseDeadlineError("DATABASE_TRANSACTION_ABANDONED", "the caller gave up on this transaction");

/** The driver rejects with Errors; anything else is wrapped so callers always get one. */
const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

const answerBoundMs = (bounds: ClientBounds) => bounds.statementTimeoutMs + ANSWER_GRACE_MS;

/** The part of the driver's pending query that drizzle uses: awaited as is, or after `.values()`. */
type DriverQuery = PromiseLike<unknown> & { values(): unknown };
type Unsafe = (query: string, parameters?: unknown[], options?: unknown) => DriverQuery;
type TransactionBody = (sql: TransactionSql) => unknown;

/**
 * A pending query that settles like the driver's, or fails at its deadline. The driver's query only
 * starts when awaited, so the clock starts then too. `admission` undefined: the query runs on a
 * connection already held (inside a transaction), only the answer is bounded; otherwise it waits at
 * most `queueTimeoutMs` to be admitted, and its answer is bounded from then on. `onFailure` sees the
 * final failure, the deadline's too. `retryOnLostConnection`: a read that met a connection the server
 * had already closed (idle in the pool across a restart or failover) runs once more on another.
 */
function boundedQuery(
  make: () => DriverQuery,
  bounds: ClientBounds,
  options: { admission: PoolAdmission | undefined; onFailure: (error: unknown) => void; onAnswer?: () => void; retryOnLostConnection: boolean },
) {
  let wantValues = false;
  let settled: Promise<unknown> | undefined;
  const run = () =>
    (settled ??= new Promise((resolve, reject) => {
      let over = false;
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: unknown) => {
        if (over) return;
        over = true;
        clearTimeout(timer);
        options.onFailure(error);
        reject(asError(error));
      };
      // `release` gives the permit back once the driver is done with the query, which may be long
      // after the caller was answered (a deadline): until then the query holds its connection.
      const attempt = (retriesLeft: number, release: () => void) => {
        const query = make();
        if (wantValues) query.values();
        query.then(
          (value) => {
            release();
            options.onAnswer?.();
            if (over) return;
            over = true;
            clearTimeout(timer);
            resolve(value);
          },
          (error: unknown) => {
            if (!over && retriesLeft > 0 && isConnectionLost(error)) return attempt(retriesLeft - 1, release);
            release();
            fail(error);
          },
        );
      };
      const admitted = (release: () => void) => {
        clearTimeout(timer);
        timer = setTimeout(() => fail(unresponsive(bounds)), answerBoundMs(bounds));
        attempt(options.retryOnLostConnection ? 1 : 0, release);
      };
      if (options.admission === undefined) return admitted(() => undefined);
      timer = setTimeout(() => {
        withdraw();
        fail(queueTimeout(bounds));
      }, bounds.queueTimeoutMs);
      const withdraw = options.admission.enter(admitted);
    }));
  return pendingOf(run, () => {
    wantValues = true;
  });
}

/** What drizzle awaits: a thenable with `.values()`, started by the first `then`. */
function pendingOf(run: () => Promise<unknown>, values: () => void) {
  const pending = {
    values() {
      values();
      return pending;
    },
    then<A = unknown, B = never>(onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
      return run().then(onFulfilled, onRejected);
    },
  };
  return pending;
}

/** Reads are safe to run twice; anything else may have taken effect before its connection was lost. */
const READ_STATEMENT = /^\s*select\b/i;

/** Socket-level failures: the transaction's connection is gone (and the server has rolled it back). */
const CONNECTION_LOST_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);

function isConnectionLost(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_LOST_CODES.has(code)) return true;
  }
  return false;
}

type TransactionState = {
  /** True while the caller still waits for this attempt's outcome. */
  live: () => boolean;
  giveUp: (error: Error) => void;
  connectionLost: boolean;
  /** Some statement of this attempt was answered, or failed otherwise than with its connection: the body has seen the database. */
  answered: boolean;
  /** The body ended: the driver sends, or has sent, its COMMIT or ROLLBACK. */
  finished: boolean;
};

/**
 * The transaction's own client: its statements are bounded, a missed answer or a lost connection
 * gives the whole transaction up, and once given up it sends nothing more. A statement issued after
 * its connection closed would reach whatever session the driver opens next on that pooled slot,
 * possibly inside another request's transaction (and unpatched postgres 3.4.9 turns it into an
 * uncaught exception thrown from a timer, which ends the process).
 */
function boundedTransactionSql(sql: TransactionSql, bounds: ClientBounds, preparation: StatementPreparation, state: TransactionState): TransactionSql {
  const unsafe = sql.unsafe.bind(sql) as unknown as Unsafe;
  const onFailure = (error: unknown) => {
    if (isConnectionLost(error)) state.connectionLost = true;
    else state.answered = true;
    if (state.connectionLost || (isErrorKind<DatabaseDeadlineError>(error, "DatabaseDeadlineError") && error.code === "DATABASE_UNRESPONSIVE")) {
      state.giveUp(asError(error));
    }
  };
  const onAnswer = () => {
    state.answered = true;
  };
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: unknown) =>
          state.live()
            ? boundedQuery(() => unsafe(query, parameters, withPreparation(options, preparation)), bounds, { admission: undefined, onFailure, onAnswer, retryOnLostConnection: false })
            : pendingOf(() => Promise.reject(abandoned()), () => undefined);
      }
      if (property === "savepoint") {
        return (...args: unknown[]) => {
          if (!state.live()) return Promise.reject(abandoned());
          const body = args.at(-1) as TransactionBody;
          const wrapped: TransactionBody = (inner) => body(boundedTransactionSql(inner, bounds, preparation, state));
          return args.length === 2 ? target.savepoint(args[0] as string, wrapped) : target.savepoint(wrapped);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

function boundedBegin(client: Sql, bounds: ClientBounds, preparation: StatementPreparation, admission: PoolAdmission) {
  return (...args: unknown[]): Promise<unknown> => {
    const body = args.at(-1) as TransactionBody;
    const options = args.length === 2 ? (args[0] as string) : undefined;
    return new Promise((resolve, reject) => {
      // waiting: no connection yet; running: the body runs; settled: the caller has its answer.
      let phase: "waiting" | "running" | "settled" = "waiting";
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        if (phase === "settled") return;
        phase = "settled";
        outcome();
      };
      // The same bound covers the wait for admission and for a connection: the body must start within it.
      // (BEGIN's answer is bounded with the body's first statement's, which it goes out with.)
      const awaitStart = () =>
        setTimeout(() => {
          withdraw();
          settle(() => reject(queueTimeout(bounds)));
        }, bounds.queueTimeoutMs);
      timer = awaitStart();

      // One try of the body on one connection. A try given up for another sends nothing more.
      let current: TransactionState | undefined;
      let retriesLeft = 1;
      // The driver writes BEGIN and the body's first statements together (patches/postgres+3.4.9.patch,
      // "pipelined BEGIN"). A connection lost before any of them was answered, while the body still ran,
      // ended a session that never committed: nothing of the try took effect and the body has seen
      // nothing, so it runs once more on another connection (what a lone BEGIN's retry used to give).
      const mayRunAgain = (state: TransactionState | undefined, error: unknown) =>
        retriesLeft > 0 && isConnectionLost(error) && (state === undefined || (!state.answered && !state.finished));

      // On a lost connection the driver must neither roll back nor commit (see boundedTransactionSql;
      // the server has already rolled back): the body never settles, and the driver ends the
      // transaction itself when it sees the close.
      const stranded = () => new Promise<never>(() => undefined);
      const guardedBody = async (sql: TransactionSql) => {
        // Reached a connection after the caller gave up: roll back without running anything.
        if (phase !== "waiting") throw abandoned();
        clearTimeout(timer);
        phase = "running";
        const state: TransactionState = {
          live: () => phase === "running" && current === state && !state.connectionLost,
          giveUp: (error) => {
            // Its retry starts once the driver has ended this try (start, below).
            if (state.connectionLost && mayRunAgain(state, error)) return;
            if (current === state) settle(() => reject(error));
          },
          connectionLost: false,
          answered: false,
          finished: false,
        };
        current = state;
        let result: unknown;
        try {
          result = await body(boundedTransactionSql(sql, bounds, preparation, state));
        } catch (error) {
          if (state.connectionLost) return stranded();
          state.finished = true;
          throw error;
        }
        if (state.connectionLost) return stranded();
        state.finished = true;
        // The caller gave up while the body ran (a statement went unanswered): roll back rather than commit.
        if (phase !== "running" || current !== state) throw abandoned();
        timer = setTimeout(() => state.giveUp(unresponsive(bounds)), answerBoundMs(bounds));
        return result;
      };
      // The permit goes back when the driver has ended the transaction, which may be after the caller gave up.
      const start = (release: () => void) => {
        const started = options === undefined ? client.begin(guardedBody) : client.begin(options, guardedBody);
        started.then(
          (value) => {
            release();
            settle(() => resolve(value));
          },
          (error: unknown) => {
            if (phase !== "settled" && mayRunAgain(current, error)) {
              retriesLeft -= 1;
              // The old try's body, if it still runs, ends stranded: nothing of it reaches the connection
              // the retry may reopen on the same pooled slot, not even a ROLLBACK.
              if (current) current.connectionLost = true;
              current = undefined;
              phase = "waiting";
              clearTimeout(timer);
              timer = awaitStart();
              start(release);
            } else {
              release();
              settle(() => reject(asError(error)));
            }
          },
        );
      };
      const withdraw = admission.enter(start);
    });
  };
}

/**
 * The driver's client with every query and transaction bounded, and every statement prepared or not
 * as `preparation` says; everything else passes through (and is not admitted: only queries and
 * transactions may use the pool through this client).
 */
export function boundedClient(client: Sql, bounds: ClientBounds, preparation: StatementPreparation): Sql {
  const unsafe = client.unsafe.bind(client) as unknown as Unsafe;
  const admission = poolAdmission(client.options.max);
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: unknown) =>
          boundedQuery(() => unsafe(query, parameters, withPreparation(options, preparation)), bounds, {
            admission,
            onFailure: () => undefined,
            retryOnLostConnection: READ_STATEMENT.test(query),
          });
      }
      if (property === "begin") return boundedBegin(target, bounds, preparation, admission);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
