import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { logger, redirectLogs } from "../log";
import { logRequest, type AccessEntry } from "./access-log";

/** The request line is built only when it will be written: info lines on, or a failure (warn). */
let captured: string[] = [];
let restore: Parameters<typeof redirectLogs>[0];
let previousLevel: string;

beforeEach(() => {
  captured = [];
  previousLevel = logger.level;
  restore = redirectLogs({ write: (line: string) => captured.push(line) });
});
afterEach(() => {
  redirectLogs(restore);
  logger.level = previousLevel;
});

function entry(status: number, lookups: string[]): AccessEntry {
  const headers = new Headers({ "x-cart-token": "ct_secret" });
  const has = headers.has.bind(headers);
  headers.has = (name: string) => (lookups.push(name), has(name));
  return { requestId: "req_1", transport: "rest", method: "GET", name: { route: "/locations/{locationId}/carts/{cartId}", procedure: "carts.get", kind: "cartRead" }, status, startedAt: performance.now(), headers };
}

describe("logRequest", () => {
  it("with info lines off, reads nothing for a success and writes a failure at warn", () => {
    logger.level = "warn";
    const lookups: string[] = [];
    logRequest(entry(200, lookups));
    expect(captured).toEqual([]);
    expect(lookups).toEqual([]);
    logRequest(entry(503, lookups));
    expect(captured).toHaveLength(1);
    expect(JSON.parse(captured[0] ?? "")).toMatchObject({ level: 40, msg: "request", status: 503, principal: "cart", requestId: "req_1" });
  });

  it("with info lines on, writes every request at info", () => {
    logger.level = "info";
    logRequest(entry(200, []));
    expect(captured).toHaveLength(1);
    expect(JSON.parse(captured[0] ?? "")).toMatchObject({ level: 30, status: 200, route: "/locations/{locationId}/carts/{cartId}" });
    expect(captured[0]).not.toContain("ct_secret");
  });
});
