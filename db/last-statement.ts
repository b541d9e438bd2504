import type { Tx } from "./client";
import { drizzleSql, type Fragment } from "./fragment";
import { driverQuery, queryRows } from "./rows";

/** A statement's rows, or why it failed; never a rejection, since it is read after its transaction ended. */
export type Settled<T> = { rows: T[] } | { error: Error };

const settled = <T>(sent: PromiseLike<T[]>): Promise<Settled<T>> =>
  Promise.resolve(sent).then(
    (rows) => ({ rows }),
    (error: unknown) => ({ error: error instanceof Error ? error : new Error(String(error)) }),
  );

/**
 * Sends a transaction's last statement so that the COMMIT which ends the transaction follows it in
 * the same round trip: the caller returns from the transaction's body without waiting for the
 * statement, and reads the result once the transaction has ended.
 *
 * On postgres-js the statement is handed to the driver before this returns (the driver queues a
 * transaction's statements in the order they are issued, and the COMMIT is issued only after the
 * body returns; the caller awaits this, then returns), so it is written to the socket with the COMMIT, and Postgres runs them in order. A
 * statement that fails aborts the transaction, and the COMMIT that follows then rolls it back (its
 * command tag is ROLLBACK, not an error). A failure the server never saw, or a statement that ran
 * but must not be committed, needs a check the COMMIT itself makes: for the Idempotency-Key record,
 * migration 0005's deferred trigger. PGlite has no round trip to save: there the statement is
 * awaited before the body returns, and the result is the same.
 */
export async function sendBeforeCommit<T>(tx: Tx, statement: Fragment): Promise<{ result: Promise<Settled<T>> }> {
  const sent = driverQuery<T>(tx, statement);
  if (!sent) {
    const result = await settled(queryRows<T>(tx, drizzleSql(statement)));
    return { result: Promise.resolve(result) };
  }
  return { result: settled(sent) };
}
