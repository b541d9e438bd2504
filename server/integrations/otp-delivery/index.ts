import type { Env } from "../../env";
import { AppError } from "../../errors";
import { logger } from "../../log";
import { createOutboxDelivery } from "./outbox";
import { createSmtpDelivery } from "./smtp";
import type { OtpDelivery } from "./types";

export type { OtpChannel, OtpDelivery, OtpMessage } from "./types";

/**
 * Where one-time codes go: SMTP when SMTP_URL (and EMAIL_FROM, which env.ts then requires) is set;
 * else the development outbox only where it cannot hand a stranger an account (development, the
 * embedded default without DATABASE_URL, or a deployment that opted in with DEV_OUTBOX); else
 * nowhere: customer sign-in answers 503 until code delivery is configured.
 */
export function createOtpDelivery(env: Env): OtpDelivery {
  if (env.SMTP_URL && env.EMAIL_FROM) return createSmtpDelivery({ url: env.SMTP_URL, from: env.EMAIL_FROM, timeoutMs: env.SMTP_TIMEOUT_MS });
  if (outboxAllowed(env)) {
    if (env.NODE_ENV === "production") logger.warn("one-time sign-in codes go to the development outbox (/dev/outbox), readable by anyone: set SMTP_URL and EMAIL_FROM for a real deployment");
    return createOutboxDelivery();
  }
  logger.warn("customer sign-in is off (503): no code delivery is configured; set SMTP_URL and EMAIL_FROM (or DEV_OUTBOX=true on a preview deployment whose testers may read every code)");
  return disabledDelivery;
}

export function outboxAllowed(env: Env): boolean {
  return env.NODE_ENV !== "production" || !env.DATABASE_URL || env.DEV_OUTBOX;
}

const disabledDelivery: OtpDelivery = {
  name: "disabled",
  channels: [],
  send() {
    return Promise.reject(codeDeliveryUnavailable());
  },
};

/** The answer to a sign-in or phone verification when no code delivery is configured. */
export const codeDeliveryUnavailable = () =>
  new AppError("DEPENDENCY_UNAVAILABLE", "Customer sign-in is not available on this deployment: no way to deliver one-time codes is configured", { details: { dependency: "code delivery" } });
