import { and, eq, lt, or, type AnyColumn, type SQL } from "drizzle-orm";
import { validationError } from "../../errors";

/** Keyset pagination newest first over (timestamp, id): an opaque cursor naming the last row of a page. */
export type TimeCursor = { at: Date; id: string };

export const encodeTimeCursor = (row: TimeCursor): string => Buffer.from(JSON.stringify([row.at.toISOString(), row.id])).toString("base64url");

export function decodeTimeCursor(text: string | undefined): TimeCursor | undefined {
  if (text === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [unknown, unknown];
    const date = typeof at === "string" ? new Date(at) : undefined;
    if (date && !Number.isNaN(date.getTime()) && typeof id === "string" && id.length > 0) return { at: date, id };
  } catch {
    // reported below
  }
  throw validationError("cursor is not one this API returned", [{ path: "cursor", message: "invalid cursor" }]);
}

/** Rows strictly older than the cursor in (timestamp desc, id desc) order. */
export function olderThan(timeColumn: AnyColumn, idColumn: AnyColumn, cursor: TimeCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  return or(lt(timeColumn, cursor.at), and(eq(timeColumn, cursor.at), lt(idColumn, cursor.id)));
}
