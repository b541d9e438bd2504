/**
 * A REST answer as plain data: status, headers and the body's text. The REST handler builds one per
 * request; Next's route turns it into a fetch Response (`toResponse`), and `npm start`'s own mount
 * (scripts/serve.mjs) writes it to the socket as it is, without a Response's body stream built and
 * read back for every request.
 *
 * Its headers are as a fetch Response would carry them, so both mounts send the same: names
 * lower-cased, values of one name spelled two ways joined with ", ", names in sorted order.
 */
export type RestAnswer = { status: number; headers: Record<string, string>; body: string | null };

/** RFC 9110 field-name (token). */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What `Headers` refuses in a value once trimmed: NUL, CR, LF, or a character past U+00FF (not a ByteString). */
const INVALID_VALUE = /[\0\r\n\u0100-\uffff]/;

/**
 * The headers a fetch `Headers` built from `init` would list (Fetch standard: sort and combine), and
 * refused as `Headers` refuses them (a TypeError), so that a bad value fails inside the handler, as a
 * 500 envelope, on both mounts. No Set-Cookie: the API sets no cookie, and `Headers` would not
 * combine it as it combines every other name.
 */
export function answerHeaders(init: Record<string, string>): Record<string, string> {
  const merged = new Map<string, string>();
  for (const name of Object.keys(init)) {
    const key = checkedName(name);
    const raw = String(init[name]);
    // Headers normalises a value by stripping leading and trailing HTTP whitespace.
    const normalised = hasEdgeWhitespace(raw) ? raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") : raw;
    if (INVALID_VALUE.test(normalised) || key === "set-cookie") throw invalidHeader(name);
    const previous = merged.get(key);
    merged.set(key, previous === undefined ? normalised : `${previous}, ${normalised}`);
  }
  const headers: Record<string, string> = {};
  for (const key of [...merged.keys()].sort()) headers[key] = merged.get(key) ?? "";
  return headers;
}

/**
 * Names already found valid, lower-cased: every answer carries the same handful, so each is checked
 * against FIELD_NAME once. Bounded, as a procedure could in principle name headers from data.
 */
const checkedNames = new Map<string, string>();
const CHECKED_NAMES_LIMIT = 256;

function checkedName(name: string): string {
  let key = checkedNames.get(name);
  if (key === undefined) {
    if (!FIELD_NAME.test(name)) throw invalidHeader(name);
    key = name.toLowerCase();
    if (checkedNames.size < CHECKED_NAMES_LIMIT) checkedNames.set(name, key);
  }
  return key;
}

const isHttpWhitespace = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d || code === 0x20;
const hasEdgeWhitespace = (value: string) => value.length > 0 && (isHttpWhitespace(value.charCodeAt(0)) || isHttpWhitespace(value.charCodeAt(value.length - 1)));
const invalidHeader = (name: string) => new TypeError(`invalid response header ${JSON.stringify(name.slice(0, 64))}`);

export function restAnswer(status: number, headers: Record<string, string>, body: string | null): RestAnswer {
  return { status, headers: answerHeaders(headers), body };
}

export function toResponse(answer: RestAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** A HEAD answer: the GET answer's status and headers, its length, and no body (RFC 9110 §9.3.2). */
export function withoutBody(answer: RestAnswer): RestAnswer {
  if (answer.body === null || answer.headers["content-length"] !== undefined) return { ...answer, body: null };
  return { status: answer.status, headers: answerHeaders({ ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)) }), body: null };
}
