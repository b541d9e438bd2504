import { z } from "zod";
import { validationError } from "../errors";

/**
 * Keyset pagination cursors: base64url of a JSON array naming the last row of a page. A cursor
 * comes back from the client, so after decoding it is parsed with the schema of its kind, and
 * every value a query receives is one the database accepts (a 32-bit sort order, a timestamp
 * inside Postgres' range, an identifier of the URL-safe characters ids are made of). Anything else
 * is a 400 naming the parameter, never a database error.
 *
 * Cursors are not signed: a cursor only names a position in an order the caller may read anyway,
 * so a hand-made one that passes the schema pages from that position and shows nothing more.
 */
export type CursorCodec<T> = {
  encode: (value: T) => string;
  /** The position a cursor names; undefined without one; a 400 naming `parameter` for any cursor this API could not have issued. */
  decode: (text: string | undefined, parameter?: string) => T | undefined;
};

/** Longest cursor text any kind issues (a 128-character id, a timestamp and JSON punctuation, in base64url); longer ones are refused before decoding. */
export const MAX_CURSOR_LENGTH = 512;

/** Row ids as stored: the identifier rules of path parameters. */
export const cursorId = z.string().regex(/^[A-Za-z0-9._:~-]{1,128}$/);

/** Postgres `integer`, the type of every sort-order column. */
export const cursorInt32 = z.number().int().min(-2147483648).max(2147483647);

/**
 * A timestamp as `Date.toISOString()` writes one for years 1-9999 (Postgres refuses year 0 and
 * JavaScript writes other years with a sign), and only a real calendar time: it must read back
 * to the same text.
 */
export const cursorTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .refine((text) => !text.startsWith("0000-"))
  .transform((text, issues) => {
    const date = new Date(text);
    if (Number.isNaN(date.getTime()) || date.toISOString() !== text) {
      issues.addIssue({ code: "custom", message: "not a calendar time" });
      return z.NEVER;
    }
    return date;
  });

export function defineCursor<T, Tuple extends unknown[]>(tuple: z.ZodType<Tuple, unknown>, toTuple: (value: T) => unknown[], fromTuple: (tuple: Tuple) => T): CursorCodec<T> {
  return {
    encode: (value) => Buffer.from(JSON.stringify(toTuple(value))).toString("base64url"),
    decode(text, parameter = "cursor") {
      if (text === undefined) return undefined;
      const parsed = text.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(text) ? tuple.safeParse(parseJson(Buffer.from(text, "base64url").toString("utf8"))) : undefined;
      if (parsed?.success) return fromTuple(parsed.data);
      throw validationError(`${parameter} is not one this API returned: pass the nextCursor of the previous page`, [{ path: parameter, message: "invalid cursor" }]);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
