import type { Env } from "../../env";
import { logger } from "../../log";
import { createOutboxDelivery } from "./outbox";
import { createSmtpDelivery } from "./smtp";
import type { OtpDelivery } from "./types";

export type { OtpChannel, OtpDelivery, OtpMessage } from "./types";

/** SMTP when SMTP_URL (and EMAIL_FROM, which env.ts then requires) is set, else the development outbox. */
export function createOtpDelivery(env: Env): OtpDelivery {
  if (env.SMTP_URL && env.EMAIL_FROM) return createSmtpDelivery({ url: env.SMTP_URL, from: env.EMAIL_FROM, timeoutMs: env.SMTP_TIMEOUT_MS });
  if (env.NODE_ENV === "production") {
    logger.warn("one-time sign-in codes go to the development outbox (/dev/outbox), readable by anyone: set SMTP_URL and EMAIL_FROM for a real deployment");
  }
  return createOutboxDelivery();
}
