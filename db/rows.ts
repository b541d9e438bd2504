import { is, type SQL } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import type { Executor } from "./client";
import { drizzleSql, statementText, type Fragment } from "./fragment";

/** Raw SQL rows on either driver (postgres-js answers an array, PGlite `{ rows }`). */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await executor.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []);
}

/**
 * A Fragment's rows. On postgres-js the finished text goes to the driver as drizzle would send it
 * (./bounded-client.ts takes it either way): drizzle's `execute` would first rebuild the statement as
 * its SQL tree, walk it again with entity checks on every chunk, and wrap the call in its prepared
 * query, tracing and cache layers, for a statement whose text it does not change: a GET cart took
 * 0.839 ms of CPU in-process that way, 0.784 ms this way (`npm run bench:profile -- --cpu-only`,
 * A/B). Elsewhere (PGlite) through drizzle.
 */
export function fragmentRows<T>(executor: Executor, statement: Fragment): Promise<T[]> {
  return driverQuery<T>(executor, statement) ?? queryRows<T>(executor, drizzleSql(statement));
}

/**
 * The driver's query for a Fragment on postgres-js, issued at once (the driver starts a query when
 * it is awaited; `.then` here does that), failing as a statement sent through drizzle fails (a
 * DrizzleQueryError with the driver's error as its cause). Undefined on another driver.
 */
export function driverQuery<T>(executor: Executor, statement: Fragment): Promise<T[]> | undefined {
  const { session } = executor._;
  if (!is(session, PostgresJsSession)) return undefined;
  const { text, params } = statementText(statement);
  return session.client.unsafe<T[]>(text, params as never[], { prepare: true }).then(
    (rows) => rows,
    (error: unknown) => {
      throw new DrizzleQueryError(text, params, error instanceof Error ? error : undefined);
    },
  );
}
