import { and, eq, lt, or, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { cursorId, cursorTimestamp, defineCursor } from "../cursor";

/** Keyset pagination newest first over (timestamp, id): an opaque cursor naming the last row of a page. */
export type TimeCursor = { at: Date; id: string };

const timeCursor = defineCursor(
  z.tuple([cursorTimestamp, cursorId]),
  (row: TimeCursor) => [row.at.toISOString(), row.id],
  ([at, id]) => ({ at, id }),
);

export const encodeTimeCursor = timeCursor.encode;
export const decodeTimeCursor = timeCursor.decode;

/** Rows strictly older than the cursor in (timestamp desc, id desc) order. */
export function olderThan(timeColumn: AnyColumn, idColumn: AnyColumn, cursor: TimeCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  return or(lt(timeColumn, cursor.at), and(eq(timeColumn, cursor.at), lt(idColumn, cursor.id)));
}
