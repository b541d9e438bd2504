import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awayFromWindowEdge } from "../rate-limit-window";
import { PEER_ADDRESS_HEADER } from "../../server/http/client-ip";
import { createTestApp, type TestApp } from "../harness";

/**
 * The routes beside the REST API share its per-address limit, and every answer that counted carries
 * the rate-limit headers: forged webhook deliveries (signed ones never count, so a busy shop's
 * processor is not throttled), the development outbox, and failed credentials on the job routes.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_SECONDS: "86400", CRON_SECRET: "c".repeat(40) } });
});
// A day-long window, and each test's counts kept clear of its edge (at midnight UTC).
beforeEach(() => awayFromWindowEdge(86_400));
afterAll(async () => {
  await app.close();
});

const send = (path: string, init: RequestInit & { ip: string }) => {
  const headers = new Headers(init.headers);
  headers.set(PEER_ADDRESS_HEADER, init.ip);
  return app.fetch(new Request(`http://localhost${path}`, { ...init, headers }));
};

async function expectCountedDown(request: () => Promise<Response>, refusedStatus: number) {
  const remaining: (string | null)[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await request();
    expect(response.status).toBe(refusedStatus);
    remaining.push(response.headers.get("x-ratelimit-remaining"));
    expect(response.headers.get("x-ratelimit-limit")).toBe("3");
  }
  expect(remaining).toEqual(["2", "1", "0"]);
  const limited = await request();
  expect(limited.status).toBe(429);
  expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED" });
  expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
}

describe("rate limits beside the REST API", () => {
  it("counts forged webhook deliveries against the sender's address", async () => {
    await expectCountedDown(() => send("/api/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" }, body: "{}", ip: "192.0.2.31" }), 400);
  });

  it("counts every read of the development outbox", async () => {
    await expectCountedDown(() => send("/api/dev/outbox", { method: "GET", ip: "192.0.2.32" }), 200);
  });

  it("counts failed credentials on the job routes and says so in the headers", async () => {
    await expectCountedDown(() => send("/api/jobs/expire-carts", { method: "POST", headers: { Authorization: "Bearer wrong" }, ip: "192.0.2.33" }), 401);
  });
});
