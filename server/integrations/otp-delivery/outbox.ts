import { desc, eq } from "drizzle-orm";
import type { Executor } from "../../../db/client";
import { devOutboxMessages } from "../../../db/schema";
import { newId } from "../../security/tokens";
import type { OtpDelivery } from "./types";

/**
 * The embedded default: messages are kept in the database, for the developer (and the demo) to read
 * at /api/dev/outbox or /dev/outbox, on both channels. Nothing leaves the service. Anyone who can
 * reach those pages can read every code, so a real deployment configures SMTP_URL, which also
 * removes the pages.
 */
export function createOutboxDelivery(): OtpDelivery {
  return {
    name: "outbox",
    channels: ["email", "sms"],
    async send(message, { tx, sentAt }) {
      await tx.insert(devOutboxMessages).values({ id: newId("msg"), ...message, createdAt: sentAt });
    },
  };
}

export type OutboxMessage = { to: string; subject: string; text: string; createdAt: string };

export const OUTBOX_PAGE_SIZE = 50;

/** Newest first; optionally only the messages to one recipient (exact, as the code was sent). */
export async function listOutboxMessages(db: Executor, options: { to?: string | undefined } = {}): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(devOutboxMessages)
    .where(options.to ? eq(devOutboxMessages.to, options.to) : undefined)
    .orderBy(desc(devOutboxMessages.sequence))
    .limit(OUTBOX_PAGE_SIZE);
  return rows.map((row) => ({ to: row.to, subject: row.subject, text: row.text, createdAt: row.createdAt.toISOString() }));
}
