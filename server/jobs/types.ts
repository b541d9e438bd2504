import type { AppDeps } from "../app/deps";

/** What every job run reports: rows changed, batches run, and whether it finished (or ran out of time). */
export type JobReport = {
  job: JobName;
  /** Rows (carts, records) this run changed. */
  processed: number;
  batches: number;
  /** False when the time budget ran out, or a dependency failed, with work left for the next run. */
  complete: boolean;
  durationMs: number;
  /** Job-specific counts. */
  details: Record<string, number>;
};

export const jobNames = ["expire-carts", "prune-idempotency", "prune-sign-in", "reconcile-payments", "release-quotes"] as const;
export type JobName = (typeof jobNames)[number];

export type JobRun = { deps: AppDeps; batchSize: number; deadline: number };

export type Job = (run: JobRun) => Promise<Omit<JobReport, "job" | "durationMs">>;

export function isJobName(name: string): name is JobName {
  return (jobNames as readonly string[]).includes(name);
}
