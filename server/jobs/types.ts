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
  /**
   * Carts the run could not carry to an outcome the usual way (reconcile-payments): released (the
   * card held nothing), parked for manual review (it may hold money), or held (an expired cart's
   * authorisation the processor refuses to cancel: release it by hand). Empty or absent when none.
   */
  attention?: { cartId: string; outcome: "released" | "parked" | "held"; reason: string }[];
};

export const jobNames = ["expire-carts", "prune-idempotency", "prune-sign-in", "reconcile-payments", "release-quotes"] as const;
export type JobName = (typeof jobNames)[number];

export type JobRun = { deps: AppDeps; batchSize: number; deadline: number };

export type Job = (run: JobRun) => Promise<Omit<JobReport, "job" | "durationMs">>;

export function isJobName(name: string): name is JobName {
  return (jobNames as readonly string[]).includes(name);
}
