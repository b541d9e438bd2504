import { createHash } from "node:crypto";
import { newRequestId } from "@/server/http/request-id";
import { buildOpenApiDocument } from "@/server/openapi/document";

/**
 * The OpenAPI document. This static segment takes precedence over the REST catch-all
 * (`[[...path]]`), so the document is served here without rate limiting; like every answer under
 * the prefix it carries X-Request-Id.
 *
 * Dynamic rather than prerendered: a prerendered handler keeps our Cache-Control but is served
 * from Next's cache without running, so If-None-Match never gets its 304 (checked with next start).
 * The document is memoized per process, so each request only serves a cached string.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

let cached: { body: string; etag: string } | undefined;

function serialized(): { body: string; etag: string } {
  if (!cached) {
    const body = JSON.stringify(buildOpenApiDocument());
    cached = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"` };
  }
  return cached;
}

export function GET(request: Request): Response {
  const { body, etag } = serialized();
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", ETag: etag, "X-Request-Id": newRequestId() };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (request.method === "HEAD") return new Response(null, { status: 200, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } });
  return new Response(body, { status: 200, headers });
}

export { GET as HEAD };
