import type { Tx } from "../../../db/client";
import type { OtpChannel } from "../../../db/schema";

export type { OtpChannel };

/** One message carrying a one-time code. `to` is an e-mail address (email) or an E.164 number (sms). */
export type OtpMessage = { channel: OtpChannel; to: string; subject: string; text: string };

/**
 * Delivers one-time codes. `send` runs inside the transaction that creates the challenge, as its
 * last step: a delivery that fails rolls the challenge back (the client sees 503 and may retry with
 * the same Idempotency-Key), and a challenge is never stored without its code having gone out.
 * Implementations that write to the database must use `tx` (never the outer database).
 */
export interface OtpDelivery {
  readonly name: "outbox" | "smtp" | "disabled";
  /** The channels it can send on; sign-in on any other channel is refused before a challenge exists. */
  readonly channels: readonly OtpChannel[];
  send(message: OtpMessage, context: { tx: Tx; sentAt: Date }): Promise<void>;
}
