import { getAppDeps } from "@/server/app/container";
import { getEnv } from "@/server/env";
import { handleE2ePublish } from "@/server/http/e2e-admin";

/**
 * Test fixture for the browser tests (server/http/e2e-admin.ts): 404 unless E2E_ADMIN_ROUTES=true,
 * which only playwright.config.ts sets. Checked before the app is even built, so a deployment
 * never opens a database connection for it.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  if (!getEnv().E2E_ADMIN_ROUTES) return new Response(null, { status: 404 });
  const result = await handleE2ePublish(await getAppDeps(), await request.text());
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store" } });
}
