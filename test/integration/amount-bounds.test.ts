import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../server/catalog-admin/publish";
import { chowderCup } from "../checkout-helpers";
import { cartCredential, createTestApp, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp } from "../harness";

/**
 * Every amount a client names is bounded by policy, and every total past 2^53 - 1 minor units is a
 * 400 naming the request field: never accepted, never a 500, never a stored cart that later
 * requests cannot price.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/** $14.50, no options: the cart of the report. Harbor Kitchen's maxRate is 0.5, so a tip is at most 7.25 on it. */
const calamari = { productId: "prd_hk_crispy_calamari", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };

type CartBody = { revision: number; waiterTipTotal: string; subTotal: string; orderTotalWithServiceFeeAmount: number; items: { id: string }[] };

async function cartWith(item?: object): Promise<CartHandle> {
  const cart = await startCart(app);
  if (item) expect((await mutate(app, cart, "POST", "/items", item)).status).toBe(200);
  return cart;
}

function expectRefused(response: { status: number; body: unknown }, field: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  const body = response.body as { code: string; details?: { fields?: { path: string }[] } };
  expect(body.code).toBe("VALIDATION_ERROR");
  const paths = (body.details?.fields ?? []).map((issue) => issue.path);
  expect(paths.length).toBeGreaterThan(0);
  expect(new Set(paths)).toEqual(new Set([field]));
}

const read = async (cart: CartHandle) => (await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: { "X-Cart-Token": cart.token } })).body as CartBody;

describe("waiter tip amount", () => {
  it("refuses 9,999,999,999,999.00 and 99,999,999 on a 14.50 cart, naming amount, and leaves the cart as it was", async () => {
    const cart = await cartWith(calamari);
    const before = await read(cart);
    for (const amount of ["9999999999999.00", "99999999", "7.26"]) expectRefused(await mutate(app, cart, "PUT", "/gratuity", { amount }), "amount");
    expect(await read(cart)).toEqual(before);
  });

  it("accepts up to the location's maxRate of the subtotal before discount", async () => {
    const cart = await cartWith(calamari);
    const tipped = await mutate(app, cart, "PUT", "/gratuity", { amount: "7.25" });
    expect(tipped.status, tipped.text).toBe(200);
    expect(tipped.body).toMatchObject({ waiterTipTotal: "7.25" });
  });

  it("refuses a tip on an empty cart, and the cart still takes items", async () => {
    const cart = await cartWith();
    expectRefused(await mutate(app, cart, "PUT", "/gratuity", { amount: "9999999999999.00" }), "amount");
    expectRefused(await mutate(app, cart, "PUT", "/gratuity", { amount: "90071992547409.91" }), "amount");
    const added = await mutate(app, cart, "POST", "/items", calamari);
    expect(added.status, added.text).toBe(200);
  });

  it("is lowered with the lines: never above maxRate of what the cart holds now", async () => {
    const cart = await cartWith({ ...calamari, quantity: 2 });
    expect((await mutate(app, cart, "PUT", "/gratuity", { amount: "14.00" })).status).toBe(200);
    const line = (await read(cart)).items[0]?.id ?? "";
    const reduced = await mutate(app, cart, "PATCH", `/cart-item/${line}/quantity`, { quantity: 1 });
    expect(reduced.status, reduced.text).toBe(200);
    expect(reduced.body).toMatchObject({ subTotal: "14.50", waiterTipTotal: "7.25" });
  });

  it("refuses amounts that are not plain decimals of at most 2 fraction digits and 13 integer digits", async () => {
    const cart = await cartWith(calamari);
    for (const amount of ["1e3", "-0", "0.001", "1.0000000001", "12345678901234", "9007199254740993", "1".repeat(300), " 1", "0x10", "Infinity"]) {
      expectRefused(await mutate(app, cart, "PUT", "/gratuity", { amount }), "amount");
    }
    for (const amount of [1e308, -0, 2 ** 53 + 2, 5]) expectRefused(await mutate(app, cart, "PUT", "/gratuity", { amount }), "amount");
  });
});

describe("gratuity rate", () => {
  it("refuses rates above 1, above maxRate, with more than 6 fraction digits, or not plain decimals", async () => {
    const cart = await cartWith(calamari);
    for (const rate of ["0.51", "1.5", "9007199254740993", "0.1234567", "1e-1", "-0", ".5"]) expectRefused(await mutate(app, cart, "PUT", "/gratuity", { rate }), "rate");
    expect((await mutate(app, cart, "PUT", "/gratuity", { rate: "0.5" })).status).toBe(200);
  });
});

describe("totals past 2^53 - 1 minor units", () => {
  it("are a 400 naming quantity, and the cart stays priceable", async () => {
    const cart = await cartWith(chowderCup);
    const before = await read(cart);
    // A catalog price no real menu has, but nothing stops a merchant from publishing it.
    await publish(app.deps.database.db, HARBOR.locationId, [{ kind: "modifierOptionPrice", productId: "prd_hk_clam_chowder", groupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl", priceMinor: 2 ** 52 }]);
    const bowl = { productId: "prd_hk_clam_chowder", quantity: 2, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" };
    const fresh = await cartWith();
    expectRefused(await mutate(app, fresh, "POST", "/items", bowl), "quantity");
    const added = await mutate(app, fresh, "POST", "/items", calamari);
    expect(added.status, added.text).toBe(200);
    expect((await read(cart)).revision).toBe(before.revision);
  });
});

describe("client input repeated in an error message", () => {
  it("is quoted and cut, so a message never carries a payload or hidden marks verbatim", async () => {
    const cart = await cartWith(calamari);
    const code = `\u202eEVIL${"A".repeat(120)}`;
    const refused = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
      headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: { cartId: cart.cartId, code },
    });
    expect(refused.status, refused.text).toBe(400);
    const message = (refused.body as { message: string }).message;
    expect(message).not.toContain(code);
    expect(message).not.toContain("\u202e");
    expect(message).toContain('"\\u202eEVIL');
    expect(message.length).toBeLessThan(120);
  });
});
