import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerHeaders, restAnswer, toResponse, withoutBody } from "./rest-answer";

/** What a fetch Response built from `init` lists, in its own order: the mount that skips the Response must send the same. */
const fetchListed = (init: Record<string, string>) => [...new Headers(init)];

const headerName = fc.constantFrom("ETag", "etag", "Vary", "vary", "VARY", "Content-Type", "content-type", "X-Request-Id", "x-ratelimit-remaining", "Access-Control-Allow-Origin", "retry-after", "a", "Z-Last");
const headerValue = fc.stringMatching(/^[ \t]?[!-~]([ !-~]{0,20}[!-~])?[ \t]?$/);

describe("REST answers (rest-answer.ts)", () => {
  it("lists headers as a fetch Response does: lower-cased, one name's values joined, sorted, trimmed", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(headerName, headerValue), { maxLength: 12 }), (entries) => {
        const init = Object.fromEntries(entries);
        expect(Object.entries(answerHeaders(init))).toEqual(fetchListed(init));
      }),
    );
    expect(answerHeaders({ Vary: "Origin", vary: "Accept", "X-B": "1", "x-a": " 2 " })).toEqual({ vary: "Origin, Accept", "x-a": "2", "x-b": "1" });
  });

  it("refuses what a fetch Response refuses, so a bad header fails inside the handler on both mounts", () => {
    const oddValue = fc.oneof(headerValue, fc.constantFrom("a\r\nb", "a\0b", "caf\u0113", "\ud83d", "a\nb", " \t", "\u00e9"));
    const oddName = fc.oneof(headerName, fc.constantFrom("x y", "x:y", "é", ""));
    fc.assert(
      fc.property(fc.array(fc.tuple(oddName, oddValue), { maxLength: 6 }), (entries) => {
        const init = Object.fromEntries(entries);
        let expected: [string, string][] | "throws";
        try {
          expected = fetchListed(init);
        } catch {
          expected = "throws";
        }
        if (expected === "throws") expect(() => answerHeaders(init)).toThrow(TypeError);
        else expect(Object.entries(answerHeaders(init))).toEqual(expected);
      }),
    );
    expect(() => answerHeaders({ "Set-Cookie": "a=1" })).toThrow(TypeError);
  });

  it("becomes the same Response the handler used to build", async () => {
    const response = toResponse(restAnswer(201, { "Content-Type": "application/json", ETag: '"cart-2"' }, '{"ok":"é"}'));
    expect(response.status).toBe(201);
    expect([...response.headers]).toEqual([["content-type", "application/json"], ["etag", '"cart-2"']]);
    expect(await response.text()).toBe('{"ok":"é"}');
  });

  it("answers HEAD with the GET's headers and byte length, and no body", () => {
    expect(withoutBody(restAnswer(200, { ETag: "x" }, '{"name":"é"}'))).toEqual({ status: 200, headers: { "content-length": "13", etag: "x" }, body: null });
    expect(withoutBody(restAnswer(200, {}, ""))).toEqual({ status: 200, headers: { "content-length": "0" }, body: null });
    expect(withoutBody(restAnswer(304, { ETag: "x" }, null))).toEqual({ status: 304, headers: { etag: "x" }, body: null });
  });
});
