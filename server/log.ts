import pino from "pino";
import { getEnv } from "./env";
import { serializeError } from "./log-errors";

function configuredLevel(): pino.LevelWithSilent {
  try {
    const env = getEnv();
    return env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "silent" : "info");
  } catch {
    // An invalid configuration must still be reported: instrumentation.ts logs it, fatally.
    return "info";
  }
}

type LogSink = { write: (line: string) => unknown };

/** stdout, unless a test redirects it (test/log-capture.ts). */
let sink: LogSink = pino.destination({ dest: 1, sync: true });

/**
 * Structured JSON logs: one line per request from the REST and RPC handlers (server/http/access-log.ts),
 * plus failures. Redaction is a second line of defence: the first is that no code path logs a token,
 * one-time code, client secret or card detail at all.
 */
export const logger = pino(
  {
    level: configuredLevel(),
    base: { service: "storefront-ordering-service" },
    serializers: { err: serializeError },
    redact: {
      paths: ["*.authorization", "*.Authorization", "*['x-cart-token']", "*['x-receipt-token']", "*.token", "*.otp", "*.clientSecret", "*.cartAccessToken", "*.receiptToken"],
      censor: "[redacted]",
    },
  },
  { write: (line: string) => sink.write(line) },
);

/** Sends every later log line to `destination` instead of stdout, and returns where they went before. For tests that inspect what the service logs. */
export function redirectLogs(destination: LogSink): LogSink {
  const previous = sink;
  sink = destination;
  return previous;
}
