import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { carts } from "../../db/schema";
import { chowderCup } from "../checkout-helpers";
import { cartCredential, createTestApp, idemKey, startCart, type TestApp } from "../harness";

/**
 * A cart mutation sends its cart read with the Idempotency-Key's claim (services/read-ahead.ts), before
 * it knows whether the request is a replay. A replay answers from the stored record: the cart row it
 * read alongside is dropped undecoded (no JSON parsed, no Date made), as the read-ahead promises.
 * Observed at the `created_at` column's own decoder, which every decoded cart row goes through (its `lines`
 * may come from this process's kept lines: server/services/kept-cart-lines.ts).
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("the cart read sent with a claim", () => {
  it("is decoded for the first request, and not for its replay", async () => {
    const cart = await startCart(app);
    const request = {
      headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: chowderCup,
    };
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}/items`;
    const decodeRow = vi.spyOn(carts.createdAt, "mapFromDriverValue");
    try {
      const first = await app.call("POST", path, request);
      expect(first.status, first.text).toBe(200);
      expect(decodeRow).toHaveBeenCalled();

      decodeRow.mockClear();
      const replay = await app.call("POST", path, request);
      expect(replay.status, replay.text).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.text).toBe(first.text);
      expect(decodeRow).not.toHaveBeenCalled();
    } finally {
      decodeRow.mockRestore();
    }
  });
});
