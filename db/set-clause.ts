import { getTableColumns, sql, type InferInsertModel, type SQL, type Table } from "drizzle-orm";

/**
 * The SET list of an UPDATE of `values` (undefined fields left out, as Drizzle's `.set()` does),
 * each value (null included) a parameter encoded by its column as Drizzle encodes it (JSON text for
 * jsonb, ISO text for timestamps). Written here because Drizzle's update builder walks every column of the table and
 * checks each value's kind on every call; the hot path's cart update paid that on each mutation
 * (see ./projection.ts).
 */
export function setClause<T extends Table>(table: T, values: Partial<InferInsertModel<T>>): SQL {
  const columns = targets(table);
  const assignments: SQL[] = [];
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const target = columns.get(field);
    if (!target) throw new Error(`setClause: ${field} is not a column`);
    assignments.push(sql`${target.assign}${sql.param(value, target.column)}`);
  }
  if (assignments.length === 0) throw new Error("setClause: nothing to set");
  return sql.join(assignments, sql`, `);
}

type Target = { column: ReturnType<typeof getTableColumns>[string]; assign: SQL };
const targetsByTable = new WeakMap<Table, Map<string, Target>>();

function targets(table: Table): Map<string, Target> {
  let found = targetsByTable.get(table);
  if (!found) {
    // `$onUpdate` values are Drizzle's to add on every update; none of the tables written here has one.
    const withOnUpdate = Object.values(getTableColumns(table)).find((column) => column.onUpdateFn !== undefined);
    if (withOnUpdate) throw new Error(`setClause: column ${withOnUpdate.name} has $onUpdate, which this clause would skip`);
    found = new Map(Object.entries(getTableColumns(table)).map(([field, column]) => [field, { column, assign: sql.raw(`"${column.name}" = `) }]));
    targetsByTable.set(table, found);
  }
  return found;
}
