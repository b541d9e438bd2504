import { Param, sql, type SQL } from "drizzle-orm";

/**
 * A piece of SQL text with its parameters, composed as text: `parts` around `params`
 * (`parts.length === params.length + 1`), numbered `$1..$n` only when the statement is finished.
 *
 * Why not Drizzle's sql``: it builds a tree that is walked again, with entity checks on every chunk,
 * each time the statement's text is made. The cart's compare-and-set with its stored answer, the
 * hot path's last statement, paid about 0.1 ms of CPU per request for that (`npm run bench:profile`),
 * for a text that is the same on every call. Here the text is the template's own strings joined.
 * Parameters are values as the driver takes them: a column's value goes in through `columnValue`.
 */
export class Fragment {
  constructor(
    readonly parts: readonly string[],
    readonly params: readonly unknown[],
  ) {}
}

/** `fragment\`... ${value} ...\``: a Fragment value is spliced in as text with its parameters; any other value is one parameter. */
export function fragment(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  const parts: string[] = [strings[0] ?? ""];
  const params: unknown[] = [];
  values.forEach((value, index) => {
    if (value instanceof Fragment) splice(parts, params, value);
    else {
      params.push(value);
      parts.push("");
    }
    parts[parts.length - 1] += strings[index + 1] ?? "";
  });
  return new Fragment(parts, params);
}

/** The fragments one after another, `separator` between them. */
export function joinFragments(fragments: readonly Fragment[], separator: string): Fragment {
  const parts: string[] = [""];
  const params: unknown[] = [];
  fragments.forEach((piece, index) => {
    if (index > 0) parts[parts.length - 1] += separator;
    splice(parts, params, piece);
  });
  return new Fragment(parts, params);
}

/** Text that has no parameters (a name from the schema, never a value). */
export const rawFragment = (text: string): Fragment => new Fragment([text], []);

function splice(parts: string[], params: unknown[], piece: Fragment): void {
  parts[parts.length - 1] += piece.parts[0] ?? "";
  piece.params.forEach((param, index) => {
    params.push(param);
    parts.push(piece.parts[index + 1] ?? "");
  });
}

/** The finished statement: its text with `$1..$n`, and the parameters in that order. */
export function statementText(piece: Fragment): { text: string; params: unknown[] } {
  let text = piece.parts[0] ?? "";
  for (let index = 1; index < piece.parts.length; index += 1) text += `$${index}${piece.parts[index] ?? ""}`;
  return { text, params: [...piece.params] };
}

/** The same statement as Drizzle SQL, for an executor that takes only that (PGlite, `queryRows`). */
export function drizzleSql(piece: Fragment): SQL {
  const chunks: SQL[] = [sql.raw(piece.parts[0] ?? "")];
  piece.params.forEach((param, index) => {
    // A Param without an encoder is sent as it is: the value was encoded when it entered the fragment.
    chunks.push(sql`${new Param(param)}`, sql.raw(piece.parts[index + 1] ?? ""));
  });
  return sql.join(chunks);
}
