/**
 * Imported first by every bench entry (run.ts, profile.ts, layers.ts), before any service module
 * loads: the in-process phases run the service's code in this process, and must run it as `npm start`
 * does. Modules read the process's configuration when they load: the router sets response validation
 * from NODE_ENV (server/trpc/response-validation.ts: off in production, where a cart is not parsed
 * again after the service built it), and the logger its level. Without NODE_ENV=production here,
 * `tsx bench/run.ts` measured every in-process add item and replay with a check production skips.
 * Request lines on stdout would bury the report; problems still print.
 */
// Next declares NODE_ENV read-only (it inlines it into bundles); this process is no bundle.
Object.assign(process.env, { NODE_ENV: "production" });
process.env.LOG_LEVEL ??= "error";
