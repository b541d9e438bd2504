import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts } from "../../db/schema";
import { chowderCup } from "../checkout-helpers";
import { cartCredential, createTestApp, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp, type TestResponse } from "../harness";

/**
 * A cart change takes the lines this process last wrote for the cart when the row is still the version
 * it wrote (server/services/kept-cart-lines.ts), and what it made of each line before
 * (server/services/line-texts.ts). Whatever it took, each answer must be the cart a GET then renders
 * from the row, byte for byte, and a row rewritten by anyone else must be read again. Responses are not
 * validated (VALIDATE_RESPONSES=false, as in production), so the answers are the texts the service
 * assembled. Runs against `npm start` too (vitest.after-build.config.ts); what is spared is shown
 * in-process by kept-cart-lines-reuse.test.ts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { VALIDATE_RESPONSES: "false" } });
  app.clock.now = new Date("2030-01-07T15:00:00.000Z");
});
afterAll(async () => {
  await app.close();
});

const calamari = { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };

async function expectGetReads(cart: CartHandle, answer: TestResponse): Promise<void> {
  expect(answer.status, answer.text).toBe(200);
  const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
  expect(read.headers.get("etag")).toBe(answer.headers.get("etag"));
  expect(read.text).toBe(answer.text);
}

const itemIds = (answer: TestResponse) => (answer.body as { items: { id: string }[] }).items.map((item) => item.id);

describe("changes of a cart, one after another", () => {
  it("each answer the cart a GET reads right after", async () => {
    const cart = await startCart(app, HARBOR.locationId);
    await expectGetReads(cart, await mutate(app, cart, "POST", "/items", chowderCup));
    await expectGetReads(cart, await mutate(app, cart, "POST", "/items", calamari));
    const merged = await mutate(app, cart, "POST", "/items", calamari);
    await expectGetReads(cart, merged);
    const [chowderId, calamariId] = itemIds(merged);
    await expectGetReads(cart, await mutate(app, cart, "PATCH", `/cart-item/${calamariId}/quantity`, { quantity: 4 }));
    const discounted = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
      headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { cartId: cart.cartId, code: "welcome10" },
    });
    cart.etag = discounted.headers.get("etag") ?? cart.etag;
    await expectGetReads(cart, discounted);
    await expectGetReads(cart, await mutate(app, cart, "POST", "/items", { ...calamari, specialInstructions: "extra lemon" }));
    const removed = await mutate(app, cart, "PATCH", `/cart-item/${chowderId}/quantity`, { quantity: 0 });
    await expectGetReads(cart, removed);
    expect(itemIds(removed)).not.toContain(chowderId);
  });
});

describe("a cart row rewritten by anyone but this process", () => {
  it("is read again, even when its revision did not move", async () => {
    const cart = await startCart(app, HARBOR.locationId);
    expect((await mutate(app, cart, "POST", "/items", calamari)).status).toBe(200);
    // Behind the service's back: the revision and updated_at stay, only the row's xmin moves.
    await app.deps.database.db
      .update(carts)
      .set({ lines: sql`jsonb_set(${carts.lines}::jsonb, '{0,quantity}', '5')::json` })
      .where(eq(carts.id, cart.cartId));
    const merged = await mutate(app, cart, "POST", "/items", calamari);
    expect((merged.body as { items: { quantity: number }[] }).items.map((item) => item.quantity)).toEqual([6]);
    await expectGetReads(cart, merged);
  });
});
