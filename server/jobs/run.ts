import type { AppDeps } from "../app/deps";
import { expireCarts } from "./expire-carts";
import { pruneIdempotency } from "./prune-idempotency";
import { pruneSignIn } from "./prune-sign-in";
import { reconcilePayments } from "./reconcile-payments";
import { releaseQuotes } from "./release-quotes";
import { jobNames, type Job, type JobName, type JobReport } from "./types";

const jobs: Record<JobName, Job> = {
  "expire-carts": expireCarts,
  "prune-idempotency": pruneIdempotency,
  "prune-sign-in": pruneSignIn,
  "reconcile-payments": reconcilePayments,
  "release-quotes": releaseQuotes,
};

/** Runs one job within JOB_TIME_BUDGET_MS (from `startedAt`, so that `all` shares one budget). */
export async function runJob(deps: AppDeps, name: JobName, startedAt = Date.now()): Promise<JobReport> {
  const began = Date.now();
  const report = await jobs[name]({ deps, batchSize: deps.env.JOB_BATCH_SIZE, deadline: startedAt + deps.env.JOB_TIME_BUDGET_MS });
  return { job: name, ...report, durationMs: Date.now() - began };
}

/**
 * Every job, one after another, in one time budget: what a single cron entry runs. Payments
 * first (money waiting), then quotes before carts expire (an expired cart needs no quote released).
 */
export const ALL_JOBS_ORDER: readonly JobName[] = ["reconcile-payments", "release-quotes", "expire-carts", "prune-idempotency", "prune-sign-in"];

export async function runAllJobs(deps: AppDeps): Promise<JobReport[]> {
  const startedAt = Date.now();
  const reports: JobReport[] = [];
  for (const name of ALL_JOBS_ORDER) reports.push(await runJob(deps, name, startedAt));
  return reports;
}

export { jobNames };
