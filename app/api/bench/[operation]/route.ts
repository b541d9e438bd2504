import { isFloorOperation, openFloorSql, runFloorOperation, type FloorSql } from "@/bench/controls/floor-sql";
import { runControlOperation, type ControlRequest } from "@/bench/controls/operations";
import { getAppDeps } from "@/server/app/container";
import { getEnv } from "@/server/env";
import { PEER_ADDRESS_HEADER } from "@/server/http/client-ip";

/**
 * The benchmark's plain-route control (see bench/controls/operations.ts) and, for `floor-*`
 * operations, the floor (bench/controls/floor-sql.ts: the same operations as bare SQL over
 * postgres.js, K1): present in every build so that the benchmark measures the same production build
 * it ships, but it answers 404 unless BENCH_CONTROL_ROUTES=true, which only `npm run bench` sets.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

let floorSql: FloorSql | undefined;

/** The floor's own postgres.js pool (not the service's Drizzle one), opened on the first floor request. */
function floor(): FloorSql {
  if (floorSql) return floorSql;
  const url = getEnv().DATABASE_URL;
  if (!url) throw new Error("the bench floor needs DATABASE_URL");
  floorSql = openFloorSql(url);
  return floorSql;
}

async function handle(request: Request, context: { params: Promise<{ operation: string }> }): Promise<Response> {
  if (!getEnv().BENCH_CONTROL_ROUTES) return new Response(null, { status: 404 });
  const { operation } = await context.params;
  const url = new URL(request.url);
  const control: ControlRequest = {
    method: request.method,
    operation,
    query: url.searchParams,
    headers: request.headers,
    bodyText: request.method === "GET" ? "" : await request.text(),
    clientIp: request.headers.get(PEER_ADDRESS_HEADER) ?? "unknown",
    origin: url.origin,
  };
  const result = isFloorOperation(operation) ? await runFloorOperation(floor(), control) : await runControlOperation(await getAppDeps(), control);
  return new Response(result.body, { status: result.status, headers: result.headers });
}

export { handle as GET, handle as POST };
