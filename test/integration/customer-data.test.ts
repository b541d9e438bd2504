import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, loyaltyLedgerEntries, orders } from "../../db/schema";
import { completedOrder, readCart } from "../checkout-helpers";
import { bearer, customerOrder, freshEmail, freshPhone, latestCode, readOutbox, signIn, startCustomerCart, type SessionBody } from "../customer-helpers";
import { createTestApp, DUNE, HARBOR, idemKey, mutate, type TestApp } from "../harness";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * What a signed-in customer reads and does with their token: carts that follow them, orders and
 * receipts, remembered addresses, saved cards, loyalty points, phone verification.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const get = (token: string, path: string) => app.call("GET", path, { headers: bearer(token) });
type OrdersPage = { orders: { id: string; receiptId: string; status: string; totalQuantity: number; amountCharged: string; lines: { productId: string; name: string; quantity: number }[] }[]; nextCursor: string | null };
type Ledger = { merchantId: string; pointsPerUnit: number; balance: number; entries: { orderId: string | null; points: number; locationId: string }[]; nextCursor: string | null };

describe("customer carts and checkout", () => {
  it("creates a cart owned by the customer (no capability), which the token alone pays for; the order, receipt and points are theirs", async () => {
    const { token, customer } = await signIn(app);
    const created = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).not.toHaveProperty("cartAccessToken");
    expect(created.headers.get("etag")).toBe('"cart-0"');
    const [row] = await app.deps.database.db.select().from(carts).where(eq(carts.id, (created.body as { cart: { id: string } }).cart.id));
    expect(row?.customerId).toBe(customer.id);
    expect(row?.tokenHash).toBeNull();

    const { orderId, receiptId } = await customerOrder(app, token);
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.customerId).toBe(customer.id);
    const receipt = await get(token, `/receipts/${receiptId}`);
    expect(receipt.status, receipt.text).toBe(200);
    expect((receipt.body as { orderId: string }).orderId).toBe(orderId);
  });

  it("refuses a customer cart at another merchant's location (403), and another customer's cart (403)", async () => {
    const { token } = await signIn(app);
    const atDune = await app.call("POST", `/locations/${DUNE.locationId}/carts`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { fulfillmentMethod: "takeout" } });
    expect(atDune.status).toBe(403);
    const cart = await startCustomerCart(app, (await signIn(app)).token);
    expect((await app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: bearer(token) })).status).toBe(403);
    expect((await app.call("GET", `/locations/${cart.locationId}/carts/cart_missing`, { headers: bearer(token) })).status).toBe(404);
  });

  it("never lets a customer token open a guest cart, or a guest's receipt", async () => {
    const { token } = await signIn(app);
    const guest = await completedOrder(app);
    expect((await app.call("GET", `/locations/${guest.cart.locationId}/carts/${guest.cart.cartId}`, { headers: bearer(token) })).status).toBe(403);
    expect((await get(token, `/receipts/${guest.receiptId}`)).status).toBe(403);
    // The guest's order is nobody's: it is not in the customer's history.
    expect(((await get(token, "/customer/orders")).body as OrdersPage).orders).toEqual([]);
  });

  it("scopes idempotency keys to the customer: another session of the same customer replays, another customer does not", async () => {
    const email = freshEmail("scope");
    const first = await signIn(app, HARBOR.merchantSlug, email);
    const second = await signIn(app, HARBOR.merchantSlug, email);
    const key = idemKey();
    const body = { fulfillmentMethod: "takeout" };
    const created = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer(first.token), "Idempotency-Key": key }, body });
    const sameCustomer = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer(second.token), "Idempotency-Key": key }, body });
    expect(sameCustomer.headers.get("idempotent-replayed")).toBe("true");
    expect(sameCustomer.text).toBe(created.text);
    const other = await app.call("POST", `/locations/${HARBOR.locationId}/carts`, { headers: { ...bearer((await signIn(app)).token), "Idempotency-Key": key }, body });
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(other.text).not.toBe(created.text);
  });
});

describe("orders", () => {
  it("lists the customer's orders newest first, a page at a time, each with its receipt id", async () => {
    const { token } = await signIn(app);
    const placed: string[] = [];
    for (let i = 0; i < 3; i++) {
      placed.push((await customerOrder(app, token)).orderId);
      app.clock.now = new Date(app.clock.now.getTime() + 60_000);
    }
    const first = await get(token, "/customer/orders?limit=2");
    expect(first.status, first.text).toBe(200);
    const page1 = first.body as OrdersPage;
    expect(page1.orders.map((order) => order.id)).toEqual([placed[2], placed[1]]);
    expect(page1.orders[0]).toMatchObject({ status: "completed", totalQuantity: 1 });
    expect(page1.orders[0]?.amountCharged).toMatch(/^\d+\.\d{2}$/);
    expect(page1.orders[0]?.lines.map((line) => [line.productId, line.quantity])).toEqual([["prd_hk_clam_chowder", 1]]);
    expect(page1.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const page2 = (await get(token, `/customer/orders?limit=2&cursor=${page1.nextCursor ?? ""}`)).body as OrdersPage;
    expect(page2.orders.map((order) => order.id)).toEqual([placed[0]]);
    expect(page2.nextCursor).toBeNull();
    for (const order of [...page1.orders, ...page2.orders]) {
      const receipt = await get(token, `/receipts/${order.receiptId}`);
      expect(receipt.status).toBe(200);
      // The history names each order as its receipt does: the number to read out and the ready time.
      const { orderNumber, readyAt } = receipt.body as { orderNumber: string; readyAt: string | null };
      expect(order).toMatchObject({ orderNumber, readyAt });
      expect(readyAt).not.toBeNull();
    }
    expect((await get(token, "/customer/orders?cursor=not-a-cursor")).status).toBe(400);
  });

  it("shows another customer's receipts to no one but them", async () => {
    const owner = await signIn(app);
    const { receiptId } = await customerOrder(app, owner.token);
    const neighbour = await signIn(app);
    expect((await get(neighbour.token, `/receipts/${receiptId}`)).status).toBe(403);
    expect((await get((await signIn(app, DUNE.merchantSlug)).token, `/receipts/${receiptId}`)).status).toBe(403);
    expect(((await get(neighbour.token, "/customer/orders")).body as OrdersPage).orders).toEqual([]);
  });
});

describe("addresses", () => {
  it("remembers delivery addresses from orders, most recent first, each once", async () => {
    const { token } = await signIn(app);
    expect((await get(token, "/customer/addresses")).body).toEqual({ addresses: [] });
    const cambridge = { ...deliveryAddressNearHarbor, street: "1 Broadway", city: "Cambridge", zipCode: "02142", lat: 42.3629, lng: -71.0837 };
    await customerOrder(app, token, { delivery: deliveryAddressNearHarbor });
    await customerOrder(app, token, { delivery: cambridge });
    await customerOrder(app, token, { delivery: { ...deliveryAddressNearHarbor, street: "  1 CITY HALL   Square ", lat: 42.36031 } });
    await customerOrder(app, token);
    const listed = await get(token, "/customer/addresses");
    expect(listed.status, listed.text).toBe(200);
    const { addresses } = listed.body as { addresses: { street: string; city: string; streetOptional: string }[] };
    expect(addresses.map((address) => address.city)).toEqual(["Boston", "Cambridge"]);
    expect(addresses[0]).toMatchObject({ street: "1 CITY HALL   Square", country: "United States", streetOptional: "" });
  });
});

describe("saved payments (simulated processor)", () => {
  it("lists the card saved by paying while signed in (brand, last 4, expiry) and removes it; another customer's card is 404", async () => {
    const { token } = await signIn(app);
    expect((await get(token, "/customer/saved-payments")).body).toEqual({ paymentMethods: [] });
    await customerOrder(app, token, { paymentMethodId: "pm_card_mastercard" });
    const listed = await get(token, "/customer/saved-payments");
    expect(listed.status, listed.text).toBe(200);
    const cards = (listed.body as { paymentMethods: { id: string; brand: string; last4: string; expMonth: number; expYear: number }[] }).paymentMethods;
    const cardId = cards[0]?.id ?? "";
    expect(cardId).toMatch(/^pm_/);
    expect(cards).toEqual([{ id: cardId, brand: "mastercard", last4: "4444", expMonth: 12, expYear: 2034 }]);

    const neighbour = await signIn(app);
    await customerOrder(app, neighbour.token);
    const foreign = await app.call("DELETE", `/customer/saved-payments/${cardId}`, { headers: { ...bearer(neighbour.token), "Idempotency-Key": idemKey() } });
    expect(foreign.status).toBe(404);

    const removed = await app.call("DELETE", `/customer/saved-payments/${cardId}`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ id: cardId, deleted: true });
    expect((await get(token, "/customer/saved-payments")).body).toEqual({ paymentMethods: [] });
    expect((await get(neighbour.token, "/customer/saved-payments")).body).toMatchObject({ paymentMethods: [{ brand: "visa", last4: "4242" }] });
    const again = await app.call("DELETE", `/customer/saved-payments/${cardId}`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });
    expect(again.status).toBe(404);
  });

  it("does not save the card of a guest payment", async () => {
    await completedOrder(app);
    const { token } = await signIn(app);
    expect((await get(token, "/customer/saved-payments")).body).toEqual({ paymentMethods: [] });
  });
});

describe("loyalty", () => {
  it("earns points per whole currency unit of the subTotal for each completed order, once, and shows the balance", async () => {
    const { token, customer } = await signIn(app);
    const ledgerPath = `/customer/locations/${HARBOR.locationId}/loyalty/ledger`;
    expect((await get(token, ledgerPath)).body).toMatchObject({ balance: 0, entries: [], nextCursor: null, pointsPerUnit: 1 });
    const first = await customerOrder(app, token);
    const second = await customerOrder(app, token, { item: { productId: "prd_hk_clam_chowder", quantity: 3, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" } });
    const points = (subTotal: string) => Math.floor(Number(subTotal));
    const ledger = (await get(token, ledgerPath)).body as Ledger;
    expect(ledger.entries.map((entry) => [entry.orderId, entry.points])).toEqual([
      [second.orderId, points(second.subTotal)],
      [first.orderId, points(first.subTotal)],
    ]);
    expect(ledger.balance).toBe(points(first.subTotal) + points(second.subTotal));
    expect(ledger.entries[0]?.locationId).toBe(HARBOR.locationId);

    // The database refuses a second entry for an order; the ledger is unchanged.
    const insertTwice = app.deps.database.db
      .insert(loyaltyLedgerEntries)
      .values({ id: "lpt_duplicate", customerId: customer.id, merchantId: ledger.merchantId, locationId: HARBOR.locationId, orderId: first.orderId, points: 1000, reason: "order", createdAt: app.clock.now });
    await expect(insertTwice).rejects.toThrow();
    expect(((await get(token, ledgerPath)).body as Ledger).balance).toBe(ledger.balance);
  });

  it("gives nothing to guest orders, and answers 403 for another merchant's location", async () => {
    await completedOrder(app);
    expect(await app.deps.database.db.select().from(loyaltyLedgerEntries).where(eq(loyaltyLedgerEntries.points, -1))).toEqual([]);
    const { token } = await signIn(app);
    expect((await get(token, `/customer/locations/${DUNE.locationId}/loyalty/ledger`)).status).toBe(403);
    expect((await get(token, "/customer/locations/loc_missing/loyalty/ledger")).status).toBe(404);
  });
});

describe("phone verification", () => {
  async function start(token: string, phoneNumber: string) {
    return app.call("POST", "/customer/phone-verification", { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { phoneNumber } });
  }
  async function confirm(token: string, body: Record<string, unknown>) {
    return app.call("POST", "/customer/phone-verification/confirmation", { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body });
  }

  it("sends a code by SMS to the E.164 number and, once proven, marks it verified and answers a working token", async () => {
    const { token } = await signIn(app);
    const phone = freshPhone();
    const national = phone.replace("+1", "").replace(/(\d{3})(\d{3})(\d{4})/, "$1-$2-$3");
    const started = await start(token, national);
    expect(started.status, started.text).toBe(200);
    const { methodId } = started.body as { methodId: string };
    const otp = await latestCode(app, phone);
    expect((await readOutbox(app, phone)).messages[0]?.subject).toBe("Your Harbor Kitchen phone verification code");
    const confirmed = await confirm(token, { phoneNumber: phone, methodId, otp });
    expect(confirmed.status, confirmed.text).toBe(200);
    const session = confirmed.body as SessionBody;
    expect(session.customer).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true });
    expect((await get(session.token, "/customer")).body).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true });
    expect((await get(token, "/customer")).status).toBe(200);
    // The verified number now signs this customer in.
    expect((await signIn(app, HARBOR.merchantSlug, phone)).customer.id).toBe(session.customer.id);
  });

  it("refuses a wrong code (401), a code asked for by another customer (401), an invalid number (400) and, once the code is proven, a number verified by someone else (409)", async () => {
    const owner = await signIn(app);
    const phone = freshPhone();
    const { methodId } = (await start(owner.token, phone)).body as { methodId: string };
    const otp = await latestCode(app, phone);
    const wrong = otp === "000000" ? "111111" : "000000";
    expect((await confirm(owner.token, { phoneNumber: phone, methodId, otp: wrong })).status).toBe(401);
    const thief = await signIn(app);
    expect((await confirm(thief.token, { phoneNumber: phone, methodId, otp })).status).toBe(401);
    expect((await start(owner.token, "555")).status).toBe(400);
    expect((await confirm(owner.token, { phoneNumber: phone, methodId, otp })).status).toBe(200);
    // Asking for a code tells nobody whether the number is someone else's: the same 200 as for a free number.
    const asked = await start(thief.token, phone);
    expect(asked.status, asked.text).toBe(200);
    const free = await start(thief.token, freshPhone());
    expect(free.status).toBe(200);
    expect(Object.keys(asked.body as object)).toEqual(Object.keys(free.body as object));
    // Only a proven code reaches the conflict, and it changes nothing.
    const stolen = await confirm(thief.token, { phoneNumber: phone, methodId: (asked.body as { methodId: string }).methodId, otp: await latestCode(app, phone) });
    expect(stolen.status, stolen.text).toBe(409);
    expect(stolen.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "PHONE_NUMBER_IN_USE" } });
    expect((await get(thief.token, "/customer")).body).toMatchObject({ phoneNumberVerified: false });
    expect((await start(owner.token, phone)).status).toBe(409);
  });

  it("keeps a customer's pending code when another customer asks for one for the same number", async () => {
    const owner = await signIn(app);
    const phone = freshPhone();
    const { methodId } = (await start(owner.token, phone)).body as { methodId: string };
    const otp = await latestCode(app, phone);
    const other = await signIn(app);
    expect((await start(other.token, phone)).status).toBe(200);
    const confirmed = await confirm(owner.token, { phoneNumber: phone, methodId, otp });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((confirmed.body as SessionBody).customer).toMatchObject({ phoneNumber: phone, phoneNumberVerified: true });
    // The customer's own new code still replaces their previous one.
    const ownNumber = freshPhone();
    const first = (await start(other.token, ownNumber)).body as { methodId: string };
    const firstOtp = await latestCode(app, ownNumber);
    expect((await start(other.token, ownNumber)).status).toBe(200);
    const superseded = await confirm(other.token, { phoneNumber: ownNumber, methodId: first.methodId, otp: firstOtp });
    expect(superseded.status, superseded.text).toBe(401);
  });

  it("keeps a verified number from being replaced by a profile field at sign-in (409), leaving the code usable", async () => {
    const phone = freshPhone();
    const signedIn = await signIn(app, HARBOR.merchantSlug, phone);
    expect(signedIn.customer.phoneNumberVerified).toBe(true);
    const login = await app.call("POST", "/customer/auth/login", { headers: { "Idempotency-Key": idemKey() }, body: { merchantSlug: HARBOR.merchantSlug, identifierString: phone } });
    const { methodId } = login.body as { methodId: string };
    const otp = await latestCode(app, phone);
    const verify = (extra: Record<string, unknown>) =>
      app.call("POST", "/customer/auth/verify-otp", { headers: { "Idempotency-Key": idemKey() }, body: { merchantSlug: HARBOR.merchantSlug, identifierString: phone, methodId, otp, ...extra } });
    expect((await verify({ phoneNumber: freshPhone() })).status).toBe(409);
    expect((await verify({ customerName: "Grace" })).status).toBe(200);
  });
});

describe("cart mutations with the customer token", () => {
  it("follows the customer across sessions (another device signs in and sees the same cart)", async () => {
    const email = freshEmail("devices");
    const laptop = await signIn(app, HARBOR.merchantSlug, email);
    const cart = await startCustomerCart(app, laptop.token);
    const phone = await signIn(app, HARBOR.merchantSlug, email);
    const onPhone = { ...cart, bearer: phone.token };
    expect((await mutate(app, onPhone, "POST", "/items", { productId: "prd_hk_clam_chowder", quantity: 2, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" })).status).toBe(200);
    expect((await readCart(app, cart)).items).toHaveLength(1);
  });
});
