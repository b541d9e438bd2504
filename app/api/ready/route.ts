import { getAppDeps } from "@/server/app/container";
import { readinessResponse } from "@/server/http/health";

/** Readiness: database and rate limiter (see server/http/health.ts). */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return readinessResponse(getAppDeps);
}
