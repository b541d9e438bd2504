import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartLines, carts } from "../../db/schema";
import { chowderCup } from "../checkout-helpers";
import { signIn } from "../customer-helpers";
import { cartCredential, createTestApp, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp, type TestResponse } from "../harness";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * A cart mutation answers the cart as it wrote it, without reading the row back (server/services/carts.ts);
 * that answer must be the very cart a GET reads right after, byte for byte. A change of a cart this
 * process wrote starts from the lines it kept (server/services/kept-cart-lines.ts) and what it made of
 * each line before (server/services/line-texts.ts), so the changes below, one after another on one cart,
 * take that path. Runs against `npm start` too (vitest.after-build.config.ts), where responses are not
 * re-parsed by their schema (VALIDATE_RESPONSES is off in production), so nothing re-orders the answer's
 * keys: there a value stored as jsonb must be answered in jsonb's key order (db/jsonb-order.ts). In-process
 * the suite's router validates every response (server/trpc/response-validation.ts), whatever the app's
 * env says. What kept lines spare is shown in-process by kept-cart-lines-reuse.test.ts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { VALIDATE_RESPONSES: "false" } });
});
afterAll(async () => {
  await app.close();
});

const calamari = { productId: "prd_hk_crispy_calamari", quantity: 2, selections: [], itemUnavailableAction: "remove_item" };

async function expectReadBackIdentical(cart: CartHandle, answer: TestResponse): Promise<void> {
  expect(answer.status, answer.text).toBe(200);
  const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
  expect(read.headers.get("etag")).toBe(answer.headers.get("etag"));
  expect(read.text).toBe(answer.text);
}

describe("a new cart's answer is the cart a GET reads right after (the row is not read back from its insert)", () => {
  it("for a guest's ordering session and a signed-in customer's cart", async () => {
    for (const fulfillmentMethod of ["takeout", "delivery"]) {
      const cart = await startCart(app, HARBOR.locationId, fulfillmentMethod);
      const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
      expect(read.headers.get("etag")).toBe(cart.etag);
      expect(read.text).toBe(JSON.stringify(cart.cart));
    }
    const { token } = await signIn(app);
    const created = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, {
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": idemKey() },
      body: { fulfillmentMethod: "takeout" },
    });
    expect(created.status, created.text).toBe(201);
    const { cart } = created.body as { cart: { id: string } };
    const read = await app.call("GET", `/locations/${HARBOR.locationId}/carts/${cart.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(read.text).toBe(JSON.stringify(cart));
  });
});

describe("a mutation's answer is the cart a GET reads right after", () => {
  it("for every kind of change to a takeout cart", async () => {
    const cart = await startCart(app);
    await expectReadBackIdentical(cart, await mutate(app, cart, "POST", "/items", chowderCup));
    await expectReadBackIdentical(cart, await mutate(app, cart, "POST", "/items", { ...calamari, specialInstructions: "extra lemon" }));
    const items = (JSON.parse((await mutate(app, cart, "POST", "/items", chowderCup)).text) as { items: { id: string }[] }).items;
    await expectReadBackIdentical(cart, await mutate(app, cart, "PATCH", `/cart-item/${items[0]?.id}/quantity`, { quantity: 4 }));
    const discount = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
      headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { cartId: cart.cartId, code: "welcome10" },
    });
    cart.etag = discount.headers.get("etag") ?? cart.etag;
    await expectReadBackIdentical(cart, discount);
    await expectReadBackIdentical(cart, await mutate(app, cart, "PUT", "/gratuity", { rate: "0.18" }));
    await expectReadBackIdentical(cart, await mutate(app, cart, "PATCH", `/cart-item/${items[1]?.id}/quantity`, { quantity: 0 }));
  });

  it("for a delivery cart, whose address and courier quote are stored as JSON", async () => {
    const cart = await startCart(app, HARBOR.locationId, "delivery");
    await expectReadBackIdentical(cart, await mutate(app, cart, "POST", "/items", calamari));
    await expectReadBackIdentical(cart, await mutate(app, cart, "PUT", "/set-delivery", { ...deliveryAddressNearHarbor, streetOptional: "Floor 3" }));
    await expectReadBackIdentical(cart, await mutate(app, cart, "POST", "/items", chowderCup));
    await expectReadBackIdentical(cart, await mutate(app, cart, "PUT", "/gratuity", { rate: "0.15" }));
  });
});

describe("a cart row rewritten by anyone but this process", () => {
  it("is read again by the next change, even when its revision did not move", async () => {
    const cart = await startCart(app);
    expect((await mutate(app, cart, "POST", "/items", calamari)).status).toBe(200);
    // Behind the service's back: the cart's row, then a line's row, in one transaction (db/schema/carts.ts
    // cartLines). The revision and updated_at stay, only the row's xmin moves.
    await app.deps.database.db.transaction(async (tx) => {
      await tx.update(carts).set({ revision: sql`${carts.revision}` }).where(eq(carts.id, cart.cartId));
      await tx.update(cartLines).set({ line: sql`jsonb_set(${cartLines.line}::jsonb, '{quantity}', '5')::json` }).where(eq(cartLines.cartId, cart.cartId));
    });
    const merged = await mutate(app, cart, "POST", "/items", calamari);
    expect((merged.body as { items: { quantity: number }[] }).items.map((item) => item.quantity)).toEqual([7]);
    await expectReadBackIdentical(cart, merged);
  });
});

describe("a cart's line rows written alone, behind the service's back (migration 0009)", () => {
  const editQuantity = (cartId: string, quantity: number) =>
    app.deps.database.db.update(cartLines).set({ line: sql`jsonb_set(${cartLines.line}::jsonb, '{quantity}', ${String(quantity)}::jsonb)::json` }).where(eq(cartLines.cartId, cartId));
  const quantities = (answer: TestResponse) => (answer.body as { items: { quantity: number }[] }).items.map((item) => item.quantity);

  it("move the cart to its next revision: the old ETag conflicts, a GET answers the edit, and the next change builds on it", async () => {
    const cart = await startCart(app);
    const added = await mutate(app, cart, "POST", "/items", calamari);
    expect(added.headers.get("etag")).toBe('"cart-1"');
    // The kept rendering and the kept lines of revision 1 are this process's now; the edit must show through both.
    expect((await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) })).headers.get("etag")).toBe('"cart-1"');
    await editQuantity(cart.cartId, 5);

    const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
    expect(read.headers.get("etag")).toBe('"cart-2"');
    expect(quantities(read)).toEqual([5]);

    const stale = await mutate(app, cart, "POST", "/items", calamari);
    expect(stale.status).toBe(409);
    expect((stale.body as { code: string }).code).toBe("CART_CONFLICT");

    cart.etag = '"cart-2"';
    const merged = await mutate(app, cart, "POST", "/items", calamari);
    expect(quantities(merged)).toEqual([7]);
    expect(merged.headers.get("etag")).toBe('"cart-3"');
    await expectReadBackIdentical(cart, merged);
  });

  it("deleted alone, the same: the line is gone from the next read", async () => {
    const cart = await startCart(app);
    await mutate(app, cart, "POST", "/items", calamari);
    await mutate(app, cart, "POST", "/items", chowderCup);
    await app.deps.database.db.delete(cartLines).where(eq(cartLines.cartId, cart.cartId));
    const read = await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
    expect(read.headers.get("etag")).toBe('"cart-3"');
    expect(quantities(read)).toEqual([]);
  });
});

describe("a replayed write answers the text its original answered, byte for byte (the stored text is sent as it is)", () => {
  it("for a cart mutation and a signed-in customer's new cart", async () => {
    const cart = await startCart(app);
    const headers = { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() };
    const path = `/locations/${cart.locationId}/carts/${cart.cartId}/items`;
    const original = await app.call("POST", path, { headers, body: calamari });
    const replay = await app.call("POST", path, { headers, body: calamari });
    expect(original.status, original.text).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("etag")).toBe(original.headers.get("etag"));
    expect(replay.text).toBe(original.text);

    const { token } = await signIn(app);
    const created = { headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } };
    const first = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, created);
    const again = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, created);
    expect(first.status, first.text).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
  });
});
