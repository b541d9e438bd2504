import type { AppDeps } from "../app/deps";
import { AppError } from "../errors";
import { toAppError } from "../errors-map";
import { listOutboxMessages } from "../integrations/otp-delivery/outbox";
import { clientIp } from "./client-ip";
import { depsOrErrorResponse, errorResponse } from "./error-response";
import { applyRateLimit } from "./rate-limit";
import { newRequestId } from "./request-id";

/**
 * GET /api/dev/outbox: the development outbox as JSON, `{ messages: [{ to, subject, text, createdAt }] }`,
 * newest first (at most 50; `?to=<address>` for one recipient). It exists only while the outbox is
 * the configured code delivery (the embedded default, also under `next start`); once SMTP is
 * configured it answers 404 like any unknown path.
 */
export function createDevOutboxHandler(getDeps: () => Promise<AppDeps>) {
  return async function handle(request: Request): Promise<Response> {
    const requestId = newRequestId();
    const deps = await depsOrErrorResponse(getDeps, requestId);
    if (deps instanceof Response) return deps;
    if (deps.otpDelivery.name !== "outbox") return errorResponse(new AppError("NOT_FOUND", "No operation exists at this path and method"), requestId, {});
    const limited = await applyRateLimit(deps, clientIp(request.headers, deps.env));
    if (limited.error) return errorResponse(limited.error, requestId, limited.headers);
    try {
      const to = new URL(request.url).searchParams.get("to") ?? undefined;
      const messages = await listOutboxMessages(deps.database.db, { to });
      return Response.json({ messages }, { headers: { ...limited.headers, "Cache-Control": "no-store", "X-Request-Id": requestId, "X-Robots-Tag": "noindex" } });
    } catch (error) {
      return errorResponse(toAppError(error), requestId, limited.headers);
    }
  };
}
