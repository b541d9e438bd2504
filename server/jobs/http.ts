import { createHash, timingSafeEqual } from "node:crypto";
import type { AppDeps } from "../app/deps";
import { AppError, notFound } from "../errors";
import { toAppError } from "../errors-map";
import { clientIp } from "../http/client-ip";
import { applyRateLimit } from "../http/rate-limit";
import { depsOrErrorResponse, errorResponse, logUnexpected } from "../http/error-response";
import { newRequestId } from "../http/request-id";
import { logger } from "../log";
import { runAllJobs, runJob } from "./run";
import { isJobName, type JobReport } from "./types";

/** Compares digests, so neither the length nor any prefix of CRON_SECRET leaks through timing. */
export function bearerMatches(authorization: string | null, secret: string): boolean {
  const presented = createHash("sha256").update(authorization ?? "").digest();
  const expected = createHash("sha256").update(`Bearer ${secret}`).digest();
  return timingSafeEqual(presented, expected);
}

/**
 * GET (Vercel Cron) or POST /api/jobs/{name}, name one of `jobNames` or `all`.
 * - CRON_SECRET unset: 404, as if the routes did not exist (nothing can authenticate to them).
 * - Authorization not exactly `Bearer <CRON_SECRET>`: 401 (429 once the caller's address is past
 *   the rate limit: failed attempts count against it, successful cron calls do not).
 * - Unknown job: 404. Otherwise 200 with the counts; `complete: false` means work was left for the
 *   next run (time budget). A lost database is 503, like every other route.
 */
export function createJobsHandler(getDeps: () => Promise<AppDeps>) {
  return async function handle(request: Request, name: string): Promise<Response> {
    const requestId = newRequestId();
    const headers = { "X-Request-Id": requestId };
    const deps = await depsOrErrorResponse(getDeps, requestId, headers);
    if (deps instanceof Response) return deps;
    const secret = deps.env.CRON_SECRET;
    if (!secret) return errorResponse(notFound("This route"), requestId, headers);
    if (!bearerMatches(request.headers.get("authorization"), secret)) {
      const limited = await applyRateLimit(deps, clientIp(request.headers, deps.env));
      if (limited.error) return errorResponse(limited.error, requestId, { ...headers, ...limited.headers });
      logger.warn({ requestId, job: isJobName(name) || name === "all" ? name : "(unknown)" }, "job route: wrong or missing credentials");
      return errorResponse(new AppError("UNAUTHORIZED", "Send Authorization: Bearer <CRON_SECRET>"), requestId, { ...headers, ...limited.headers, "WWW-Authenticate": "Bearer" });
    }
    if (name !== "all" && !isJobName(name)) return errorResponse(notFound("Job"), requestId, headers);
    try {
      const reports = name === "all" ? await runAllJobs(deps) : [await runJob(deps, name)];
      for (const report of reports) logger.info({ requestId, ...report }, "job finished");
      const body: { requestId: string; complete: boolean; jobs: JobReport[] } = { requestId, complete: reports.every((report) => report.complete), jobs: reports };
      return new Response(JSON.stringify(body), { status: 200, headers: { ...headers, "Content-Type": "application/json", "Cache-Control": "no-store" } });
    } catch (error) {
      logUnexpected(error, requestId);
      return errorResponse(toAppError(error), requestId, headers);
    }
  };
}
