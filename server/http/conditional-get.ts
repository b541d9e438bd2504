import { createHash } from "node:crypto";
import { presentedPrincipal } from "./access-log";
import { requestOrigin } from "./request-origin";
import { restAnswer, type RestAnswer } from "./rest-answer";

/** A GET (or HEAD) without credentials may be answered from (and stored in) the response cache; the key names the representation. */
export function publicReadKey(request: Request, url: URL): string | undefined {
  if ((request.method !== "GET" && request.method !== "HEAD") || presentedPrincipal(request.headers) !== "anonymous") return undefined;
  // The origin is part of it: /redirect answers with links on the host the request arrived at.
  return `${requestOrigin(request, url)}${url.pathname}${url.search}`;
}

/**
 * A GET's own headers: a strong validator over the body unless the procedure chose its own ETag
 * (carts use their revision), and who may cache it.
 */
export function representationHeaders(request: Request, body: string, procedureHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", ...procedureHeaders };
  headers.etag ??= `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  // Anything read with a credential is private, whatever the procedure forgot to say.
  headers["cache-control"] ??= presentedPrincipal(request.headers) === "anonymous" ? "public, max-age=30, stale-while-revalidate=60" : "private, no-store";
  return headers;
}

/**
 * A read's answer. For a conditional read (RestMatch.conditional), 304 when If-None-Match already
 * holds the representation's ETag, or is `*` (any current representation, RFC 9110 §13.1.2); else,
 * and always for a read whose ETag is a revision, the representation.
 */
export function readAnswer(request: Request, body: string, headers: Record<string, string>, conditional: boolean): RestAnswer {
  const etag = headers.etag ?? "";
  const ifNoneMatch = conditional ? request.headers.get("if-none-match") : null;
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""))) {
    return restAnswer(304, headers, null);
  }
  return restAnswer(200, headers, body);
}
