import { describe, expect, it } from "vitest";
import { findUnstorableText } from "../domain/text";
import { toAppError } from "../errors-map";
import { assertJsonContentType, MAX_JSON_DEPTH, nestingDepth, parseJsonBytes, readBoundedBytes } from "./json-body";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("readBoundedBytes", () => {
  it("refuses a body whose stream fails (the client left before it ended) with 400, not a dependency's 503", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(aborted);
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"productId":'));
      },
    });
    const request = new Request("http://localhost/x", { method: "POST", body, duplex: "half", headers: { "content-length": "40" } } as RequestInit);
    const refused = await readBoundedBytes(request, 1_000).catch((error: unknown) => toAppError(error));
    expect(refused).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(toAppError(aborted).code).toBe("DEPENDENCY_UNAVAILABLE");
  });
});

describe("nestingDepth", () => {
  it("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(nestingDepth("1")).toBe(0);
    expect(nestingDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(nestingDepth('{"a":"[[[[{{{{\\"[[["}')).toBe(1);
  });
});

describe("parseJsonBytes", () => {
  it("parses up to MAX_JSON_DEPTH and refuses one level more, without recursing", () => {
    expect(parseJsonBytes(bytes("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)))).toBeDefined();
    expect(() => parseJsonBytes(bytes("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1)))).toThrow(/deep/);
    expect(() => parseJsonBytes(bytes("[".repeat(1_000_000)))).toThrow(/deep/);
  });

  it("refuses invalid UTF-8 and invalid JSON", () => {
    expect(() => parseJsonBytes(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/UTF-8/);
    expect(() => parseJsonBytes(bytes("{"))).toThrow(/not valid JSON/);
  });
});

describe("assertJsonContentType", () => {
  it("takes JSON with no charset or UTF-8, and refuses any other charset or media type", () => {
    for (const ok of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=\"UTF-8\"", "application/json; charset=utf8"]) expect(() => assertJsonContentType(ok)).not.toThrow();
    for (const bad of ["application/json; charset=utf-16", "application/json;charset=iso-8859-1", "text/plain", null]) expect(() => assertJsonContentType(bad)).toThrow();
  });
});

describe("findUnstorableText", () => {
  it("walks any depth without overflowing the stack, in document order", () => {
    let value: unknown = "ok\u0000";
    for (let level = 0; level < 100_000; level++) value = [value];
    expect(findUnstorableText(value)?.message).toMatch(/NUL/);
    expect(findUnstorableText({ a: "fine", b: ["x", { c: "\ud800" }], d: "\u0000" })).toEqual({ path: "b[1].c", message: expect.stringMatching(/surrogate/) as unknown });
  });
});
