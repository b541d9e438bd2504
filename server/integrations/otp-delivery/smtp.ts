import { createTransport } from "nodemailer";
import { dependencyUnavailable } from "../../errors";
import type { OtpDelivery } from "./types";

export type SmtpOptions = { url: string; from: string; timeoutMs: number };

/**
 * E-mail over SMTP (nodemailer). It sends on the e-mail channel only: no SMS transport is built in,
 * so with SMTP configured, sign-in and verification by phone number are refused up front (400)
 * instead of codes silently going nowhere.
 */
export function createSmtpDelivery(options: SmtpOptions): OtpDelivery {
  const transport = createTransport({
    url: options.url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return {
    name: "smtp",
    channels: ["email"],
    async send(message) {
      if (message.channel !== "email") throw new Error(`the SMTP delivery cannot send ${message.channel} messages`);
      try {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        throw dependencyUnavailable("E-mail delivery", error);
      }
    },
  };
}
