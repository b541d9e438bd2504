import { buildDeps } from "../app/container";
import { getEnv } from "../env";
import { runAllJobs, runJob } from "./run";
import { isJobName, jobNames } from "./types";

/**
 * `npm run jobs -- <name|all>`: runs background jobs once against DATABASE_URL, for self-hosted
 * schedulers (cron, systemd timers). Exits 1 when a job failed or left work for the next run.
 * With the embedded PGlite (no DATABASE_URL) the running server owns the data directory: call its
 * job route instead (see README, "Background jobs").
 */
async function main(): Promise<number> {
  const name = process.argv[2] ?? "";
  if (name !== "all" && !isJobName(name)) {
    console.error(`usage: npm run jobs -- <${[...jobNames, "all"].join("|")}>`);
    return 2;
  }
  const env = getEnv();
  if (!env.DATABASE_URL) {
    console.error("[jobs] DATABASE_URL is unset: the embedded PGlite belongs to the running server (one process per data directory). Use: curl -fsS -H \"Authorization: Bearer $CRON_SECRET\" http://127.0.0.1:3000/api/jobs/" + name);
    return 2;
  }
  const deps = await buildDeps(env);
  if (deps.payments.name === "simulated" && (name === "all" || name === "reconcile-payments")) {
    // Its payments live in the server's memory: this process would find none and take every one for lost.
    console.error("[jobs] the simulated card processor keeps its payments in the server's memory, which this process cannot see: run reconcile-payments (or all) through the server. Use: curl -fsS -H \"Authorization: Bearer $CRON_SECRET\" http://127.0.0.1:3000/api/jobs/" + name);
    await deps.rateLimiter.close?.();
    await deps.database.close();
    return 2;
  }
  try {
    const reports = name === "all" ? await runAllJobs(deps) : [await runJob(deps, name)];
    for (const report of reports) console.log(JSON.stringify(report));
    return reports.every((report) => report.complete) ? 0 : 1;
  } finally {
    await deps.rateLimiter.close?.();
    await deps.database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("[jobs] failed:", error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
