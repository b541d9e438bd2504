import type { DatabaseHandle } from "../../db/client";
import type { Env } from "../env";
import type { RateLimiter } from "../integrations/rate-limit/types";

/** Everything a request may use, built once per process (or per test) and passed in explicitly. */
export type AppDeps = {
  env: Env;
  database: DatabaseHandle;
  rateLimiter: RateLimiter;
  /** Injected so that tests can move time (cart expiry, quotes, schedules). */
  now: () => Date;
};
