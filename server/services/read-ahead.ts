import type { Executor } from "../../db/client";

/**
 * A read a write's kind can send before the write's use case runs: with the Idempotency-Key's claim,
 * so that the driver pipelines both and Postgres answers them in one round trip
 * (server/services/idempotency.ts, `alongsideClaim`). Postgres runs them in the order sent, so the
 * read sees what it would have seen right after the claim.
 *
 * `send` starts the read in a transaction; the transaction's next `read` takes it if its arguments
 * are the same, once (any later read reads again); with other arguments, or elsewhere, it reads. A
 * read sent and never taken (a replay, a key still in use) is dropped: its failure is not the
 * request's, so it is caught here.
 */
export type ReadAhead<Args extends readonly string[], T> = {
  send: (tx: Executor, ...args: Args) => void;
  read: (db: Executor, ...args: Args) => Promise<T>;
};

export function readAhead<Args extends readonly string[], T>(read: (db: Executor, ...args: Args) => Promise<T>): ReadAhead<Args, T> {
  const sent = new WeakMap<Executor, { args: Args; result: Promise<T> }>();
  return {
    send(tx, ...args) {
      const result = read(tx, ...args);
      result.catch(() => undefined);
      sent.set(tx, { args, result });
    },
    read(db, ...args) {
      const ahead = sent.get(db);
      // The first read in the transaction decides: a later one may follow a write the sent read predates.
      sent.delete(db);
      if (!ahead || ahead.args.some((value, index) => value !== args[index])) return read(db, ...args);
      return ahead.result;
    },
  };
}
