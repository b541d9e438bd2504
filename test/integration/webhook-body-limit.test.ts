import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "../../server/http/client-ip";
import { createTestApp, type TestApp } from "../harness";

/**
 * The Stripe webhook's body is not authenticated until its signature is checked, so it is read only
 * up to the route's limit (512 KiB): a larger one is refused with 400 without the process holding it,
 * whether its length is declared or it streams on without one.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const LIMIT = 512 * 1024;
const CHUNK = 64 * 1024;

function endless(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      // A sender that never stops; the test stops after 50 MB in any case.
      if (pulled >= 50 * 1024 * 1024) return controller.close();
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x7b));
    },
  });
  return { body, pulled: () => pulled };
}

describe("the Stripe webhook's body limit", () => {
  it("refuses a body past 512 KiB having read little more than the limit", async () => {
    const { body, pulled } = endless();
    const request = new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=bogus", [PEER_ADDRESS_HEADER]: "198.51.100.30" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await app.fetch(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
    // The stream may run ahead of the reader by a few chunks (the transport's buffers), never far.
    expect(pulled()).toBeLessThan(LIMIT + 32 * CHUNK);
  });
});
