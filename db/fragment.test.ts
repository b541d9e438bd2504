import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { drizzleSql, fragment, joinFragments, rawFragment, statementText } from "./fragment";
import { carts, idempotencyRecords } from "./schema";
import { insertClause, setClause } from "./write-clauses";

const dialect = new PgDialect();

describe("fragment", () => {
  it("numbers the parameters of nested fragments in text order", () => {
    const inner = fragment`update t set a = ${1}, b = ${"two"} where id = ${"x"} returning 1`;
    const statement = fragment`with w as (${inner}), ${rawFragment("")}s as (select ${null}::int${rawFragment(" and true")}) select ${"last"}`;
    expect(statementText(statement)).toEqual({
      text: "with w as (update t set a = $1, b = $2 where id = $3 returning 1), s as (select $4::int and true) select $5",
      params: [1, "two", "x", null, "last"],
    });
  });

  it("joins fragments with their parameters", () => {
    const joined = joinFragments([fragment`a = ${1}`, rawFragment("b = now()"), fragment`c = ${3}`], ", ");
    expect(statementText(fragment`set ${joined} where ${"k"}`)).toEqual({ text: "set a = $1, b = now(), c = $2 where $3", params: [1, 3, "k"] });
  });

  it("is the text and parameters Drizzle makes of the same statement, also run through Drizzle", () => {
    const answer = { statusCode: 201, responseSealed: "z2.sealed", responseHeaders: { ETag: '"cart-1"' } };
    const written = { revision: 4, updatedAt: new Date("2026-11-27T06:00:00.000Z"), metadata: null, courierTipMinor: 1250 };
    const ours = fragment`with last_write as (update carts set ${setClause(carts, written)} where id = ${"cart_1"} returning 1), stored as (update idempotency_records set ${setClause(idempotencyRecords, answer)} where scope = ${"s"} and key = ${"k"} returning 1) select ${7}`;
    const drizzles = sql`with last_write as (update carts set "revision" = ${sql.param(4, carts.revision)}, "updated_at" = ${sql.param(written.updatedAt, carts.updatedAt)}, "metadata" = ${sql.param(null, carts.metadata)}, "courier_tip_minor" = ${sql.param(1250, carts.courierTipMinor)} where id = ${"cart_1"} returning 1), stored as (update idempotency_records set "status_code" = ${sql.param(201, idempotencyRecords.statusCode)}, "response_sealed" = ${sql.param("z2.sealed", idempotencyRecords.responseSealed)}, "response_headers" = ${sql.param(answer.responseHeaders, idempotencyRecords.responseHeaders)} where scope = ${"s"} and key = ${"k"} returning 1) select ${7}`;
    const expected = dialect.sqlToQuery(drizzles);
    expect(statementText(ours)).toEqual({ text: expected.sql, params: expected.params });
    // Typings are for drivers that declare parameter types; neither postgres-js nor PGlite reads them.
    const { sql: text, params } = dialect.sqlToQuery(drizzleSql(ours));
    expect({ text, params }).toEqual({ text: expected.sql, params: expected.params });
  });

  it("writes an INSERT's columns and values as Drizzle's sql.param does", () => {
    const at = new Date("2026-11-27T06:00:00.000Z");
    const ours = statementText(fragment`insert into carts ${insertClause(carts, { id: "c", revision: 0, createdAt: at, metadata: { a: 1 } } as unknown as typeof carts.$inferInsert)} returning 1`);
    const expected = dialect.sqlToQuery(
      sql`insert into carts ("id", "revision", "created_at", "metadata") values (${sql.param("c", carts.id)}, ${sql.param(0, carts.revision)}, ${sql.param(at, carts.createdAt)}, ${sql.param({ a: 1 }, carts.metadata)}) returning 1`,
    );
    expect(ours).toEqual({ text: expected.sql, params: expected.params });
  });
});
