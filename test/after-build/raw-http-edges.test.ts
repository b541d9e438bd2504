import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REST_PREFIX } from "../../server/http/rest-handler";
import { HARBOR } from "../harness";
import { ownDatabase, startServer, waitUntilReady, type Server } from "./servers";

/**
 * What Node's HTTP parser or Next's pipeline would answer before our handler runs, sent as raw
 * HTTP/1.1 (fetch will not send TRACE, unknown methods or 60 KB of headers) to `npm start`: each
 * answer is still the error envelope with X-Request-Id. The in-process classes of the same edges
 * are in test/integration/prefix-edges.test.ts.
 */
let server: Server;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
const menus = `/locations/${HARBOR.locationId}/menus`;

beforeAll(async () => {
  database = await ownDatabase("edges", inject("postgresRun"));
  server = await startServer("raw-http-edges", { DATABASE_URL: database.url, AUTH_SECRET: randomBytes(32).toString("hex"), SIMULATED_PAYMENTS: "true" });
  await waitUntilReady(server);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** One raw HTTP/1.1 exchange, for what fetch will not send (TRACE, unknown methods, malformed escapes, huge headers). */
function rawExchange(baseUrl: string, head: string): Promise<{ status: number; headers: Map<string, string>; body: unknown }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const [headText = "", bodyText = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = headText.split("\r\n");
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = bodyText;
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

describe("what the framework would answer first, against npm start", () => {
  const request = (method: string, path: string, extra = "") => `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`;
  const expectRawEnvelope = (answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ code, requestId: answer.headers.get("x-request-id") });
  };

  it("answers TRACE, PROPFIND and MKCOL on a known path 405 with Allow", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
      const answer = await rawExchange(server.url, request(method, `${REST_PREFIX}${menus}`));
      expectRawEnvelope(answer, 405, "METHOD_NOT_ALLOWED");
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
  });

  it("answers a method the HTTP parser does not know, a malformed escape, and 60 KB of headers in the envelope", async () => {
    expectRawEnvelope(await rawExchange(server.url, request("FROB", `${REST_PREFIX}${menus}`)), 400, "VALIDATION_ERROR");
    expectRawEnvelope(await rawExchange(server.url, request("GET", `${REST_PREFIX}/locations/%ff/menus`)), 400, "VALIDATION_ERROR");
    expectRawEnvelope(await rawExchange(server.url, request("GET", `${REST_PREFIX}${menus}`, `X-Padding: ${"p".repeat(60 * 1024)}\r\n`)), 431, "REQUEST_HEADERS_TOO_LARGE");
  });

  it("answers a trailing slash with the 404 envelope rather than a redirect, and still serves the storefront page with one", async () => {
    expectRawEnvelope(await rawExchange(server.url, request("GET", `${REST_PREFIX}${menus}/`)), 404, "NOT_FOUND");
    const page = await rawExchange(server.url, request("GET", "/"));
    expect(page.status).toBe(200);
  });
});
