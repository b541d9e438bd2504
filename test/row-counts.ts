import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { queryRows } from "../db/rows";
import * as schema from "../db/schema";
import type { TestApp } from "./harness";

const tables: PgTable[] = [];
for (const value of Object.values(schema) as unknown[]) if (is(value, PgTable)) tables.push(value);

/** The row count of every table of the schema: what a refused request must leave as it was. */
export async function rowCounts(app: TestApp): Promise<Record<string, number>> {
  const columns = tables.map((table) => sql`(select count(*) from ${table})::int as ${sql.identifier(getTableName(table))}`);
  const [row] = await queryRows<Record<string, number>>(app.deps.database.db, sql`select ${sql.join(columns, sql`, `)}`);
  return row ?? {};
}
