import type { SQL } from "drizzle-orm";
import type { Executor } from "./client";

/** Raw SQL rows on either driver (postgres-js answers an array, PGlite `{ rows }`). */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await executor.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []);
}
