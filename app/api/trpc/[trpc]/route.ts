import { getAppDeps } from "@/server/app/container";
import { createRpcHandler } from "@/server/http/rpc-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = createRpcHandler(getAppDeps);

export { handle as GET, handle as POST };
