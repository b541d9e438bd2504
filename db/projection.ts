import { getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";

/**
 * A table's columns as select-list text, written once, and the reader that turns a raw row back
 * into the row Drizzle's `select()` returns (each column's own `mapFromDriverValue`, null kept
 * null, as Drizzle's `mapResultRow` does).
 *
 * Why: on the hot path Drizzle's query builder rebuilt the text of the same wide statements on
 * every call and mapped each row through its entity checks, about 1.5 ms of CPU per add item
 * (`npm run bench:profile`). Drizzle's own prepared queries are bound to the pool's session, not
 * to a transaction's connection, so they do not apply inside one. The text here still comes from
 * the schema, so a new column is selected and mapped without touching the statements.
 *
 * Columns come back as `"<prefix><column name>"`, so several tables can share one statement.
 *
 * `omit`: fields left out of `text`, which the statement selects itself (under the same alias);
 * `read` decodes them as the others.
 *
 * `jsonAsText`: JSON columns are selected as their text, which `read` parses (each JSON column's own
 * decoder parses a string), so that a statement whose row may be dropped undecoded does not have the
 * driver parse its JSON on arrival (a GET cart answered from its rendering: server/services/rendered-carts.ts).
 */
export type Projection<T extends Table> = {
  /** `alias."column" as "prefixcolumn", ...` */
  readonly text: string;
  read(row: Record<string, unknown>): InferSelectModel<T>;
};

type ColumnReader = { field: string; alias: string; decode: (value: unknown) => unknown };

export function projection<T extends Table>(table: T, alias: string, prefix = "", options: { jsonAsText?: boolean; omit?: readonly (keyof InferSelectModel<T> & string)[] } = {}): Projection<T> {
  const readers: ColumnReader[] = Object.entries(getTableColumns(table)).map(([field, column]) => ({
    field,
    alias: `${prefix}${column.name}`,
    decode: (value) => column.mapFromDriverValue(value),
  }));
  const text = Object.entries(getTableColumns(table))
    .filter(([field]) => !options.omit?.includes(field as keyof InferSelectModel<T> & string))
    .map(([, column]) => `${alias}."${column.name}"${options.jsonAsText && column.dataType === "json" ? "::text" : ""} as "${prefix}${column.name}"`)
    .join(", ");
  return {
    text,
    read(row) {
      const out: Record<string, unknown> = {};
      for (const { field, alias: key, decode } of readers) {
        const value = row[key];
        out[field] = value === null || value === undefined ? null : decode(value);
      }
      // Built field by field from the table's own columns: the shape InferSelectModel describes.
      return out as InferSelectModel<T>;
    },
  };
}
