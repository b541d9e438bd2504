import { AppError, validationError } from "../errors";

/**
 * Deepest nesting of arrays and objects a request body may have. The deepest body the API takes is
 * an add-item request (object > selections array > selection object), so 32 is generous; a body
 * nested thousands deep would otherwise reach recursive walks (zod, the text check) and overflow
 * the stack.
 */
export const MAX_JSON_DEPTH = 32;

const tooLarge = (maxBytes: number) => validationError(`The request body is larger than ${maxBytes} bytes`, [{ path: "body", message: `at most ${maxBytes} bytes` }]);

/**
 * The body's bytes, never more than maxBytes of them: a declared Content-Length past the limit is
 * refused before anything is read, and an undeclared (chunked) body is read only up to the limit.
 */
export async function readBoundedBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await readChunk(reader);
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The next chunk of the body. A stream that fails here failed on the client's side (it closed the
 * connection before the body ended: Node reports ECONNRESET "aborted"): a 400 for a request that did
 * not arrive whole, not the database-unavailable 503 that error code would otherwise be taken for.
 */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (cause) {
    throw new AppError("VALIDATION_ERROR", "The request body did not arrive whole: the connection closed before it ended", { details: { fields: [{ path: "body", message: "incomplete" }] }, cause });
  }
}

/**
 * A JSON media type whose charset, if named, is UTF-8 (RFC 8259 §8.1: JSON between systems is
 * UTF-8). A body labelled UTF-16 would otherwise be decoded as UTF-8 and mean something else.
 */
export function assertJsonContentType(contentType: string | null): void {
  const value = contentType ?? "";
  if (!/^application\/json\s*(;|$)/i.test(value)) {
    throw validationError("The request body must be JSON (Content-Type: application/json)", [
      { path: "header.content-type", message: `expected application/json, got ${JSON.stringify(value.slice(0, 64))}` },
    ]);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(value)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw validationError("The request body must be UTF-8 JSON", [{ path: "header.content-type", message: `charset ${JSON.stringify(charset.slice(0, 32))} is not utf-8` }]);
  }
}

/** How deeply the JSON text nests arrays and objects, scanned without recursion (strings skipped). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

/** Refuses JSON text (a body, or an RPC query's `input`) nested past MAX_JSON_DEPTH, naming where it came from. */
export function assertJsonDepth(text: string, where: string): void {
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw validationError(`The request's JSON nests arrays and objects more than ${MAX_JSON_DEPTH} deep`, [{ path: where, message: `at most ${MAX_JSON_DEPTH} levels` }]);
  }
}

/**
 * Bodies are read as sent: a Content-Encoding other than identity (gzip, br, ...) would be parsed as
 * if it were plain JSON, so it is refused by name rather than accepted for a body that happens to be
 * plain, or reported as invalid UTF-8 for one that is really compressed.
 */
export function assertNoContentCoding(contentEncoding: string | null): void {
  const codings = (contentEncoding ?? "").split(",").map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length > 0) {
    throw validationError("Request bodies are not decoded: send the JSON without a Content-Encoding", [
      { path: "header.content-encoding", message: `unsupported coding ${JSON.stringify(codings.join(", ").slice(0, 32))}` },
    ]);
  }
}

/** UTF-8 bytes to a parsed JSON value, refusing invalid UTF-8, invalid JSON and nesting past MAX_JSON_DEPTH. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError("The request body is not valid UTF-8");
  }
  assertJsonDepth(text, "body");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError("The request body is not valid JSON");
  }
}

/**
 * Reads the JSON body with a size limit. An empty body is `{}`; anything else must be a JSON object.
 * GET and HEAD bodies mean nothing (RFC 9110 §9.3.1) and are not read. A DELETE takes no members:
 * no body or `{}`, and anything else is refused rather than ignored.
 */
export async function readRestBody(request: Request, maxBytes: number): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes.byteLength === 0) return request.method === "DELETE" ? undefined : {};
  assertJsonContentType(request.headers.get("content-type"));
  assertNoContentCoding(request.headers.get("content-encoding"));
  const parsed = parseJsonBytes(bytes);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw validationError("The request body must be a JSON object", [{ path: "body", message: "expected a JSON object" }]);
  }
  if (request.method === "DELETE") {
    const members = Object.keys(parsed);
    if (members.length > 0) throw validationError("This operation takes no body: send {} or nothing", members.slice(0, 10).map((member) => ({ path: `body.${member}`, message: "unexpected member" })));
    return undefined;
  }
  return parsed;
}

/**
 * A body member named like one of the operation's path parameters is refused: the adapter merges
 * the path into the input over the body, so `{"cartId": "other"}` was silently ignored, and the
 * OpenAPI document gives every body `additionalProperties: false` without those members.
 */
export function refusePathMembers(body: unknown, pathParameters: readonly string[]): void {
  if (typeof body !== "object" || body === null) return;
  const given = pathParameters.filter((name) => Object.hasOwn(body, name));
  if (given.length > 0) {
    throw validationError(
      `The path gives ${given.join(" and ")}; the body may not`,
      given.map((name) => ({ path: `body.${name}`, message: "unexpected member: a path parameter" })),
    );
  }
}
