import { getAppDeps } from "@/server/app/container";
import { createRestHandler } from "@/server/http/rest-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = createRestHandler(getAppDeps);

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
