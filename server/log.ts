import pino from "pino";
import { getEnv } from "./env";

/**
 * Structured JSON logs. Redaction is a second line of defence: the first is that no code path
 * logs a token, one-time code, client secret or card detail at all.
 */
export const logger = pino({
  level: getEnv().LOG_LEVEL ?? (getEnv().NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "storefront-ordering-service" },
  redact: {
    paths: ["*.authorization", "*.Authorization", "*['x-cart-token']", "*['x-receipt-token']", "*.token", "*.otp", "*.clientSecret", "*.cartAccessToken"],
    censor: "[redacted]",
  },
});
