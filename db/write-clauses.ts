import { getTableColumns, type InferInsertModel, type Table } from "drizzle-orm";
import { Fragment } from "./fragment";
import { jsonText } from "./json-text";

/**
 * The SET list of an UPDATE, and the column and VALUES lists of an INSERT, of `values` (undefined
 * fields left out, as Drizzle's `.set()` and `.values()` do), each value (null included) a parameter
 * encoded by its column as Drizzle encodes it (JSON text for jsonb, ISO text for timestamps).
 * Written here because Drizzle's builders walk every column of the table and check each value's
 * kind on every call; the hot path's cart writes paid that on each request (see ./projection.ts).
 * They are fragments (./fragment.ts), which the hot path's last statement is composed of.
 * A column left out of an INSERT takes its SQL default, as with Drizzle.
 */
export function setClause<T extends Table>(table: T, values: Partial<InferInsertModel<T>>): Fragment {
  const given = assignments(table, values);
  return new Fragment(
    given.map(({ target }, index) => (index === 0 ? target.assign : `, ${target.assign}`)).concat(""),
    given.map(({ target, value }) => columnValue(target.column, value)),
  );
}

/** `("a", "b") values ($1, $2)` for `insert into <table> ...`. */
export function insertClause<T extends Table>(table: T, values: InferInsertModel<T>): Fragment {
  const given = assignments(table, values);
  // The text around the n values: the column list and "values (" before the first, ", " between, ")" after the last.
  const parts = [`(${given.map(({ target }) => target.quoted).join(", ")}) values (`];
  for (let index = 1; index < given.length; index += 1) parts.push(", ");
  parts.push(")");
  return new Fragment(
    parts,
    given.map(({ target, value }) => columnValue(target.column, value)),
  );
}

type Column = ReturnType<typeof getTableColumns>[string];

/**
 * A value as the driver takes it for `column`: what Drizzle sends for `sql.param(value, column)`. A JSON
 * column's value whose text is already known (./json-text.ts) is sent as that text, which is
 * what Drizzle's encoder (JSON.stringify) would make of it.
 */
function columnValue(column: Column, value: unknown): unknown {
  if (value === null) return null;
  if (column.dataType === "json" && typeof value === "object") return jsonText(value);
  return column.mapToDriverValue(value);
}

type Target = { column: Column; quoted: string; assign: string };
const targetsByTable = new WeakMap<Table, Map<string, Target>>();

function assignments(table: Table, values: Record<string, unknown>): { target: Target; value: unknown }[] {
  const columns = targets(table);
  const given: { target: Target; value: unknown }[] = [];
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const target = columns.get(field);
    if (!target) throw new Error(`write clause: ${field} is not a column`);
    given.push({ target, value });
  }
  if (given.length === 0) throw new Error("write clause: nothing to write");
  return given;
}

function targets(table: Table): Map<string, Target> {
  let found = targetsByTable.get(table);
  if (!found) {
    // `$defaultFn` and `$onUpdate` values are Drizzle's to add on every write; none of the tables written here has one.
    const computed = Object.values(getTableColumns(table)).find((column) => column.defaultFn !== undefined || column.onUpdateFn !== undefined);
    if (computed) throw new Error(`write clause: column ${computed.name} has a $defaultFn or $onUpdate, which this clause would skip`);
    found = new Map(
      Object.entries(getTableColumns(table)).map(([field, column]) => [field, { column, quoted: `"${column.name}"`, assign: `"${column.name}" = ` }]),
    );
    targetsByTable.set(table, found);
  }
  return found;
}
