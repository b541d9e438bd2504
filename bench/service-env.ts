import { BENCH_AUTH_SECRET } from "./database";

/** The app servers' pool: large enough that 50 clients do not queue on it (the default is 10). */
export const APP_POOL_MAX = 20;

/** The app's environment: in-memory rate limiter (no Redis configured), logs only for problems. */
export function serviceEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "KV_REST_API_URL", "KV_REST_API_TOKEN", "VERCEL", "VERCEL_ENV"]) delete env[name];
  return {
    ...env,
    NODE_ENV: "production",
    AUTH_SECRET: BENCH_AUTH_SECRET,
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: "100000000",
    DATABASE_POOL_MAX: String(APP_POOL_MAX),
    CLIENT_IP_SOURCE: "socket",
    LOG_LEVEL: "warn",
    SIMULATED_PAYMENTS: "true",
    HOSTNAME: "127.0.0.1",
    PORT: String(port),
  };
}
