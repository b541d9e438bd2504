import { healthResponse } from "@/server/http/health";

/** Liveness: answers while the process runs, without touching any dependency. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(): Response {
  return healthResponse();
}
