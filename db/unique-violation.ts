/**
 * Whether `error`, or an error it was caused by (Drizzle wraps the driver's), is Postgres refusing a
 * row that would break the unique index or constraint `name` (SQLSTATE 23505). postgres.js names it
 * `constraint_name`, PGlite `constraint`.
 */
export function violatesUnique(error: unknown, name: string): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    const fields = current as Error & { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (fields.code === "23505" && (fields.constraint_name ?? fields.constraint) === name) return true;
  }
  return false;
}
