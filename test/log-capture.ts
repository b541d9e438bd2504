import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { logger, redirectLogs } from "../server/log";

/**
 * Vitest setup file of the integration projects. When TEST_LOG_DIR is set (scripts/test.sh), every
 * log line the service writes during the run goes to `logs-<pid>.ndjson` there, at the most verbose
 * level (a secret logged at debug level is still a leak), instead of stdout. The harness records
 * the credentials it saw in the same directory (test/secrets.ts); scripts/scan-test-logs.ts then
 * checks, after the whole run, that no recorded credential appears in any log line.
 */
const dir = process.env.TEST_LOG_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const fd = openSync(path.join(dir, `logs-${process.pid}.ndjson`), "a");
  process.once("exit", () => closeSync(fd));
  redirectLogs({ write: (line: string) => writeSync(fd, line) });
  logger.level = "trace";
}
