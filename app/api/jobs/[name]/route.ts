import { getAppDeps } from "@/server/app/container";
import { createJobsHandler } from "@/server/jobs/http";

/** Background jobs (server/jobs): Vercel Cron calls GET with `Authorization: Bearer <CRON_SECRET>`. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
// Vercel's ceiling for this function; JOB_TIME_BUDGET_MS (default 20 s) stops starting batches well before it.
export const maxDuration = 60;

const handle = createJobsHandler(getAppDeps);

async function run(request: Request, context: { params: Promise<{ name: string }> }): Promise<Response> {
  return handle(request, (await context.params).name);
}

export { run as GET, run as POST };
