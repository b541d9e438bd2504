import { getAppDeps } from "@/server/app/container";
import { createDevOutboxHandler } from "@/server/http/dev-outbox";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = createDevOutboxHandler(getAppDeps);

export { handle as GET };
