import { runControlOperation } from "@/bench/controls/operations";
import { getAppDeps } from "@/server/app/container";
import { getEnv } from "@/server/env";
import { PEER_ADDRESS_HEADER } from "@/server/http/client-ip";

/**
 * The benchmark's plain-route control (see bench/controls/operations.ts): present in every build
 * so that the benchmark measures the same production build it ships, but it answers 404 unless
 * BENCH_CONTROL_ROUTES=true, which only `npm run bench` sets.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request, context: { params: Promise<{ operation: string }> }): Promise<Response> {
  if (!getEnv().BENCH_CONTROL_ROUTES) return new Response(null, { status: 404 });
  const { operation } = await context.params;
  const url = new URL(request.url);
  const result = await runControlOperation(await getAppDeps(), {
    method: request.method,
    operation,
    query: url.searchParams,
    headers: request.headers,
    bodyText: request.method === "GET" ? "" : await request.text(),
    clientIp: request.headers.get(PEER_ADDRESS_HEADER) ?? "unknown",
    origin: url.origin,
  });
  return new Response(result.body, { status: result.status, headers: result.headers });
}

export { handle as GET, handle as POST };
