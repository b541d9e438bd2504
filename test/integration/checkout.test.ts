import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts, locations, orderLines, orders, products, receipts } from "../../db/schema";
import type { PaymentIntentLedger } from "../../server/integrations/payments/ledger";
import {
  attemptsOf,
  cartUrl,
  completedOrder,
  orderCount,
  orderResult,
  passAcceptance,
  pay,
  paymentSession,
  pricedCart,
  readCart,
  refresh,
  type ResultBody,
  type SessionBody,
} from "../checkout-helpers";
import { sessionIntentOf } from "../checkout-helpers";
import { createTestApp, HARBOR, idemKey, mutate, startCart, type TestApp } from "../harness";
import { processorForTarget, type ProcessorUnderTest } from "../processor-target";

/**
 * Checkout through the REST paths: on the embedded default (the simulated processor) in-process,
 * and with the production build's Stripe SDK against the local fake (test/processor-target.ts).
 * Crashes at chosen points of a payment: checkout-crash.test.ts (in-process only).
 */
let processor: ProcessorUnderTest;
let ledger: PaymentIntentLedger;
let app: TestApp;
beforeAll(async () => {
  processor = await processorForTarget("whsec_checkout_test");
  app = await createTestApp({ env: processor.env });
  ledger = processor.ledgerOf(app);
});
afterAll(async () => {
  await app.close();
  await processor.close();
});

const chargesOf = (intentId: string) => ledger.charges.filter((charge) => charge.intentId === intentId);
const sessionIntent = (cartId: string) => sessionIntentOf(app, cartId);

/** A Harbor starter at `priceMinor` (added once), and the add-item body of `quantity` of it. */
async function starterPricedAt(id: string, name: string, priceMinor: number, quantity: number) {
  await app.deps.database.db.insert(products).values({ id, locationId: HARBOR.locationId, categoryId: "cat_hk_starters", name, priceMinor }).onConflictDoNothing();
  return { productId: id, quantity, selections: [], itemUnavailableAction: "remove_item" };
}

describe("payment session", () => {
  it("answers the client secret and the quote: total = orderTotalWithServiceFeeAmount, upper-case currency, revision = quoteFingerprint", async () => {
    const cart = await pricedCart(app);
    const before = await readCart(app, cart);
    const response = await paymentSession(app, cart);
    expect(response.status, response.text).toBe(200);
    const body = response.body as SessionBody;
    expect(body).toEqual({
      provider: "CARDPROCESSOR",
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/) as unknown,
      quote: { revision: before.quoteFingerprint, total: { amount: before.orderTotalWithServiceFeeAmount, currency: "USD" }, tip: { amount: 0, currency: "USD" } },
    });
    // Like every cart change it moves the revision and answers the new ETag; the price is unchanged.
    expect(response.headers.get("etag")).toBe(`"cart-${before.revision + 1}"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const after = await readCart(app, cart);
    expect(after).toMatchObject({ revision: before.revision + 1, quoteFingerprint: before.quoteFingerprint, orderTotalWithServiceFeeAmount: before.orderTotalWithServiceFeeAmount, status: "OPEN" });
    const intent = ledger.retrieve(await sessionIntent(cart.cartId));
    expect(intent).toMatchObject({ amount: before.orderTotalWithServiceFeeAmount, currency: "usd", capture_method: "manual", metadata: { cartId: cart.cartId, quoteFingerprint: before.quoteFingerprint } });
  });

  it("recovers the same intent on a second call, and amends that same intent when the quote changed", async () => {
    const cart = await pricedCart(app);
    const intentsBefore = ledger.intentCount;
    const first = (await paymentSession(app, cart)).body as SessionBody;
    const again = (await paymentSession(app, cart)).body as SessionBody;
    expect(again.clientSecret).toBe(first.clientSecret);
    expect((await mutate(app, cart, "PUT", "/gratuity", { rate: "0.20" })).status).toBe(200);
    const updated = await paymentSession(app, cart);
    const body = updated.body as SessionBody;
    const current = await readCart(app, cart);
    expect(body.clientSecret).toBe(first.clientSecret);
    expect(body.quote).toMatchObject({ revision: current.quoteFingerprint, total: { amount: current.orderTotalWithServiceFeeAmount } });
    expect(body.quote.tip.amount).toBeGreaterThan(0);
    expect(ledger.intentCount).toBe(intentsBefore + 1);
    expect(ledger.retrieve(await sessionIntent(cart.cartId))).toMatchObject({ amount: current.orderTotalWithServiceFeeAmount, metadata: { quoteFingerprint: current.quoteFingerprint } });
  });

  it("replays a retry with the same key and If-Match; the old ETag then conflicts", async () => {
    const cart = await pricedCart(app);
    const oldEtag = cart.etag;
    const key = idemKey();
    const first = await paymentSession(app, cart, key);
    const retry = await app.call("POST", `${cartUrl(cart)}/payment-session`, { headers: { "X-Cart-Token": cart.token, "If-Match": oldEtag, "Idempotency-Key": key }, body: {} });
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
    const stale = await mutate(app, { ...cart, etag: oldEtag }, "PUT", "/gratuity", { rate: "0.15" });
    expect(stale.status).toBe(409);
    expect((stale.body as { code: string }).code).toBe("CART_CONFLICT");
  });

  it("refuses an empty cart and a total under the processor's minimum before calling the processor", async () => {
    const empty = await startCart(app);
    const intents = ledger.intentCount;
    const refusedEmpty = await paymentSession(app, { ...empty, quoteFingerprint: "", total: 0 });
    expect(refusedEmpty.status).toBe(409);
    expect(refusedEmpty.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "CART_EMPTY" } });

    // A 20-cent product: $0.22 with tax and service fee, under Stripe's USD 0.50.
    const cheap = await pricedCart(app, await starterPricedAt("prd_test_mint", "After-dinner mint", 20, 1));
    expect(cheap.total).toBeLessThan(50);
    const refused = await paymentSession(app, cheap);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "BELOW_PROCESSOR_MINIMUM", minimumAmount: 50, currency: "USD", totalAmount: cheap.total } });
    expect((refused.body as { message: string }).message).toMatch(/\$0\.50/);
    expect(ledger.intentCount).toBe(intents);
    expect((await readCart(app, cheap)).revision).toBe(Number(/\d+/.exec(cheap.etag)?.[0]));
  });

  it("refuses a total above the processor's largest charge before calling the processor", async () => {
    // 99 x $10,101.01 = $999,999.99 with nothing added would still pass; tax and fees take it over.
    const lavish = await pricedCart(app, await starterPricedAt("prd_test_banquet", "Banquet for a thousand", 1_010_101, 99));
    expect(lavish.total).toBeGreaterThan(99_999_999);
    const intents = ledger.intentCount;
    const refused = await paymentSession(app, lavish);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "ABOVE_PROCESSOR_MAXIMUM", maximumAmount: 99_999_999, currency: "USD", totalAmount: lavish.total } });
    expect((refused.body as { message: string }).message).toMatch(/\$999,999\.99/);
    expect(ledger.intentCount).toBe(intents);
  });

  it("answers REQUOTE_REQUIRED for an expired quote", async () => {
    const cart = await pricedCart(app);
    app.clock.now = new Date(app.clock.now.getTime() + 16 * 60_000);
    const response = await paymentSession(app, cart);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: ["QUOTE_EXPIRED"] } });
  });

  it("is CART_IMMUTABLE once the cart is paid", async () => {
    const { cart } = await completedOrder(app);
    await refresh(app, cart);
    const response = await paymentSession(app, cart);
    expect(response.status).toBe(409);
    expect((response.body as { code: string }).code).toBe("CART_IMMUTABLE");
  });

});

describe("payments and the order result", () => {
  it("pm_card_visa: the order is placed with lines and totals as charged, accepted after the simulated kitchen's delay", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const cartBefore = await readCart(app, cart);
    const paid = await pay(app, cart, "pm_card_visa");
    expect(paid.status, paid.text).toBe(200);
    const result = paid.body as ResultBody;
    expect(result).toMatchObject({ status: "order_pending", orderId: expect.stringMatching(/^ord_/) as unknown });
    expect(result.pollAfterMs).toBeGreaterThan(0);
    expect(paid.headers.get("retry-after")).toBe(String(app.env.ORDER_ACCEPT_DELAY_SECONDS));
    expect(result.receiptToken).toBeUndefined();

    const cartAfter = await readCart(app, cart);
    expect(cartAfter.status).toBe("COMPLETED");
    expect(cartAfter.revision).toBeGreaterThan(cartBefore.revision);
    expect(cartAfter.lockedAt).toBe(app.clock.now.toISOString());

    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    expect(order).toMatchObject({
      id: result.orderId,
      amountChargedMinor: cartBefore.orderTotalWithServiceFeeAmount,
      currency: "usd",
      quoteFingerprint: cartBefore.quoteFingerprint,
      cardBrand: "visa",
      cardLast4: "4242",
      customerId: null,
      fulfilmentMethod: "takeout",
      processor: processor.name,
    });
    expect(order?.totals.orderTotalWithServiceFee).toBe(cartBefore.orderTotalWithServiceFeeAmount);
    const lines = await app.deps.database.db.select().from(orderLines).where(eq(orderLines.orderId, order?.id ?? ""));
    expect(lines).toEqual([expect.objectContaining({ productId: "prd_hk_clam_chowder", quantity: 1, unitPriceMinor: 1295, totalMinor: 1295 })]);
    expect(chargesOf(order?.paymentIntentId ?? "")).toEqual([{ intentId: order?.paymentIntentId, amount: cartBefore.orderTotalWithServiceFeeAmount, currency: "usd" }]);

    const pending = await orderResult(app, cart);
    expect(pending.body).toMatchObject({ status: "order_pending", orderId: result.orderId });
    expect(pending.headers.get("cache-control")).toBe("private, no-store");
    passAcceptance(app);
    const completed = await orderResult(app, cart);
    expect(completed.status).toBe(200);
    expect(completed.headers.get("retry-after")).toBeNull();
    const done = completed.body as ResultBody;
    expect(done).toMatchObject({ status: "completed", orderId: result.orderId, receiptId: expect.stringMatching(/^rcpt_/) as unknown, receiptToken: expect.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/) as unknown });
    // The same capability on every poll, stored only as its hash.
    expect(((await orderResult(app, cart)).body as ResultBody).receiptToken).toBe(done.receiptToken);
    const [receipt] = await app.deps.database.db.select().from(receipts).where(eq(receipts.id, done.receiptId ?? ""));
    expect(receipt?.tokenHash).toBe(createHash("sha256").update(done.receiptToken ?? "").digest("hex"));
    expect(JSON.stringify(receipt)).not.toContain(done.receiptToken);
  });

  it("a declined card fails the attempt and reopens the cart (new revision); another card then pays, once", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const before = await readCart(app, cart);
    const declined = await pay(app, cart, "pm_card_chargeDeclined");
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: "failed", failure: { code: "generic_decline", message: "Your card was declined." } });
    const reopened = await readCart(app, cart);
    expect(reopened).toMatchObject({ status: "OPEN", lockedAt: null });
    expect(reopened.revision).toBe(before.revision + 2);
    expect((await orderResult(app, cart)).body).toMatchObject({ status: "failed", failure: { code: "generic_decline" } });

    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status).toBe("order_pending");
    const intentId = await sessionIntent(cart.cartId);
    expect(chargesOf(intentId)).toHaveLength(1);
    expect(await orderCount(app, cart.cartId)).toBe(1);
    expect((await attemptsOf(app, cart.cartId)).map((attempt) => attempt.status).sort()).toEqual(["failed", "succeeded"]);
  });

  it("pm_card_authenticationRequired fails (the action cannot be completed here) and reopens the cart", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const response = await pay(app, cart, "pm_card_authenticationRequired");
    expect(response.body).toMatchObject({ status: "failed", failure: { code: "authentication_required" } });
    expect((await readCart(app, cart)).status).toBe("OPEN");
    expect(chargesOf(await sessionIntent(cart.cartId))).toHaveLength(0);
  });

  it("an unknown payment method fails the attempt; nothing is charged", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const response = await pay(app, cart, "pm_card_doesNotExist");
    expect(response.body).toMatchObject({ status: "failed", failure: { code: "invalid_payment_method" } });
    expect((await readCart(app, cart)).status).toBe("OPEN");
  });

  it("REQUOTE_REQUIRED and nothing charged: another quote, an expired quote, a blocking revalidation, a changed catalog", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const intentId = await sessionIntent(cart.cartId);
    const expectRequote = async (reason: string, options: { quoteFingerprint?: string } = {}) => {
      const response = await pay(app, cart, "pm_card_visa", options);
      expect(response.status, reason).toBe(409);
      expect(response.body, reason).toMatchObject({ code: "REQUOTE_REQUIRED", details: { reasons: expect.arrayContaining([reason]) as unknown } });
      expect((await readCart(app, cart)).status).toBe("OPEN");
      expect(chargesOf(intentId)).toHaveLength(0);
      expect(ledger.retrieve(intentId).status).toBe("requires_payment_method");
    };
    await expectRequote("QUOTE_MISMATCH", { quoteFingerprint: "0".repeat(64) });

    const db = app.deps.database.db;
    const [location] = await db.select().from(locations).where(eq(locations.id, HARBOR.locationId));
    const revisions = { cartRevision: 1, catalogPublicationRevision: 1, resolvedCatalogSnapshotRevision: 1, commercePolicyRevision: 0, providerBindingRevision: null };
    const changeSet = {
      version: 1 as const,
      previous: revisions,
      current: revisions,
      reasonCodes: ["PRICE_CHANGED" as const],
      changes: [],
      blocking: true,
      reconfirmationRequired: true,
      invalidatedEvidence: { quote: true, benefits: false, paymentAuthorization: true },
    };
    await db
      .update(carts)
      .set({ catalogRevalidation: { required: true, reasonCodes: ["PRICE_CHANGED" as const], changeSet, checkedAt: app.clock.now.toISOString(), acknowledgedAt: null } })
      .where(eq(carts.id, cart.cartId));
    // A required revalidation with no blocking entries still needs the customer's acknowledgement.
    await expectRequote("CHANGES_NOT_ACKNOWLEDGED");
    await db.update(carts).set({ catalogRevalidation: null }).where(eq(carts.id, cart.cartId));

    await db.update(carts).set({ catalogRevision: (location?.catalogRevision ?? 1) + 1 }).where(eq(carts.id, cart.cartId));
    await expectRequote("CATALOG_CHANGED");
    await db.update(carts).set({ catalogRevision: location?.catalogRevision ?? 1, policyRevision: (location?.policyRevision ?? 0) + 1 }).where(eq(carts.id, cart.cartId));
    await expectRequote("POLICY_CHANGED");
    await db.update(carts).set({ policyRevision: location?.policyRevision ?? 0 }).where(eq(carts.id, cart.cartId));

    app.clock.now = new Date(app.clock.now.getTime() + 16 * 60_000);
    await expectRequote("QUOTE_EXPIRED");
  });

  it("needs a payment session for the quote being paid", async () => {
    const cart = await pricedCart(app);
    const none = await pay(app, cart, "pm_card_visa");
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "PAYMENT_SESSION_REQUIRED" } });
    await paymentSession(app, cart);
    expect((await mutate(app, cart, "POST", "/items", { productId: "prd_hk_smash_burger", quantity: 1, selections: [{ modifierGroupId: "mg_hk_smash_burger_side", optionId: "opt_hk_smash_burger_sweet_potato_fries" }], itemUnavailableAction: "remove_item" })).status).toBe(200);
    await refresh(app, cart);
    const outdated = await pay(app, cart, "pm_card_visa");
    expect(outdated.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "PAYMENT_SESSION_REQUIRED" } });
    await paymentSession(app, cart);
    const paid = await pay(app, cart, "pm_card_visa");
    expect((paid.body as ResultBody).status).toBe("order_pending");
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    expect(order?.amountChargedMinor).toBe(cart.total);
  });

  it("retries never charge twice: the same key replays, a new key reports the placed order", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const key = idemKey();
    const first = await pay(app, cart, "pm_card_visa", { key });
    const replay = await pay(app, cart, "pm_card_visa", { key });
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await pay(app, cart, "pm_card_mastercard");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "order_pending", orderId: (first.body as ResultBody).orderId });
    expect(chargesOf(await sessionIntent(cart.cartId))).toHaveLength(1);
    expect((await attemptsOf(app, cart.cartId))).toHaveLength(1);
  });

  it("copies the cart's customer onto the order", async () => {
    const cart = await pricedCart(app);
    await app.deps.database.db.update(carts).set({ customerId: "cus_test_checkout" }).where(eq(carts.id, cart.cartId));
    await paymentSession(app, cart);
    await pay(app, cart, "pm_card_visa");
    const [order] = await app.deps.database.db.select().from(orders).where(eq(orders.cartId, cart.cartId));
    expect(order?.customerId).toBe("cus_test_checkout");
  });

  it("reports payment_pending before anything was paid, and failed for an expired cart", async () => {
    const cart = await pricedCart(app);
    const response = await orderResult(app, cart);
    expect(response.body).toEqual({ status: "payment_pending", pollAfterMs: 1000 });
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await mutate(app, cart, "DELETE", "")).status).toBe(200);
    expect((await orderResult(app, cart)).body).toMatchObject({ status: "failed", failure: { code: "cart_expired" } });
  });

  it("gives the receipt capability only to the cart's own credential", async () => {
    const { cart } = await completedOrder(app);
    const other = await startCart(app);
    expect((await orderResult(app, cart, { "X-Cart-Token": other.token })).status).toBe(403);
    expect((await orderResult(app, cart, {})).status).toBe(401);
  });
});

describe("receipts", () => {
  it("shows lines, totals with formatted amounts, merchant, location and the card's brand and last 4 only", async () => {
    const { receiptId, receiptToken, orderId } = await completedOrder(app);
    const response = await app.call("GET", `/receipts/${receiptId}`, { headers: { "X-Receipt-Token": receiptToken } });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const receipt = response.body as Record<string, unknown>;
    expect(receipt).toMatchObject({
      id: receiptId,
      orderId,
      currency: "usd",
      merchant: { displayName: "Harbor Kitchen", statementDescriptor: "HARBOR KITCHEN" },
      location: { id: HARBOR.locationId, displayName: "Harbor Kitchen Downtown", city: "Boston", phone: "+1 617-555-0142" },
      fulfilment: { method: "takeout", pickupType: "ASAP" },
      lines: [{ productId: "prd_hk_clam_chowder", name: "New England Clam Chowder", quantity: 1, unitPrice: "12.95", unitPriceFormatted: "$12.95", total: "12.95", selections: [{ optionName: "Bowl", price: "4.00", priceFormatted: "$4.00" }] }],
      totals: { subTotal: "12.95", subTotalFormatted: "$12.95", taxTotal: "0.81", serviceFeeTotal: "0.39", orderTotalWithServiceFee: "14.15", orderTotalWithServiceFeeFormatted: "$14.15" },
      payment: { provider: "CARDPROCESSOR", brand: "visa", last4: "4242", amount: "14.15", amountFormatted: "$14.15" },
    });
    // Word boundaries: random ids in the body may contain "pi_" mid-string; a Stripe id would start a value.
    expect(response.text).not.toMatch(/secret|\bpm_card|\bpi_/);
  });

  it("401 without or with a wrong token, 403 with another receipt's token, 404 for an unknown receipt; the token opens nothing else", async () => {
    const first = await completedOrder(app);
    const second = await completedOrder(app);
    const read = (id: string, headers: Record<string, string>) => app.call("GET", `/receipts/${id}`, { headers });
    expect((await read(first.receiptId, {})).status).toBe(401);
    expect((await read(first.receiptId, { "X-Receipt-Token": "rt_not-a-real-token" })).status).toBe(401);
    expect((await read(first.receiptId, { "X-Receipt-Token": second.receiptToken })).body).toMatchObject({ code: "FORBIDDEN" });
    expect((await read("rcpt_missing", { "X-Receipt-Token": first.receiptToken })).status).toBe(404);
    expect((await read(first.receiptId, { "X-Receipt-Token": first.cart.token })).status).toBe(401);
    expect((await read(first.receiptId, { Authorization: "Bearer not-a-customer-token" })).status).toBe(401);
    // A receipt capability is not a cart capability.
    expect((await app.call("GET", cartUrl(first.cart), { headers: { "X-Cart-Token": first.receiptToken } })).status).toBe(401);
    expect((await app.call("GET", `/receipts/${first.receiptId}?receiptToken=${first.receiptToken}`)).status).toBe(400);
  });
});

describe("rating", () => {
  const rate = (cart: { locationId: string; cartId: string; token: string }, body: object, key = idemKey()) =>
    app.call("POST", `${cartUrl(cart)}/rating`, { headers: { "X-Cart-Token": cart.token, "Idempotency-Key": key }, body });

  it("rates a completed order once: 201, then 409 for a second rating; a retry replays", async () => {
    const { cart, orderId } = await completedOrder(app);
    const key = idemKey();
    const first = await rate(cart, { rating: 5, comment: "  Best chowder on the waterfront  " }, key);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({ orderId, rating: 5, comment: "Best chowder on the waterfront", createdAt: app.clock.now.toISOString() });
    const replay = await rate(cart, { rating: 5, comment: "  Best chowder on the waterfront  " }, key);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    const second = await rate(cart, { rating: 1 });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "ALREADY_RATED" } });
  });

  it("refuses an order that is not completed yet, and invalid ratings", async () => {
    const cart = await pricedCart(app);
    expect((await rate(cart, { rating: 4 })).body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "ORDER_NOT_COMPLETED" } });
    await paymentSession(app, cart);
    await pay(app, cart, "pm_card_visa");
    expect((await rate(cart, { rating: 4 })).body).toMatchObject({ details: { reason: "ORDER_NOT_COMPLETED" } });
    passAcceptance(app);
    for (const body of [{ rating: 0 }, { rating: 6 }, { rating: "5" }, { rating: 4.5 }, { rating: 3, comment: "x".repeat(1001) }, {}]) {
      const response = await rate(cart, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await rate(cart, { rating: 3 })).status).toBe(201);
  });
});

describe("cart revisions around a payment", () => {
  it("the lock and the completion are cart changes: each moves the revision", async () => {
    const cart = await pricedCart(app);
    await paymentSession(app, cart);
    const before = (await readCart(app, cart)).revision;
    await pay(app, cart, "pm_card_visa");
    const after = await readCart(app, cart);
    expect(after.revision).toBe(before + 2);
    expect(after.status).toBe("COMPLETED");
  });
});

describe("typed RPC", () => {
  it("serves the same checkout procedures at /api/trpc, with the same rules", async () => {
    const cart = await pricedCart(app);
    const call = (procedure: string, init: RequestInit) => app.fetch(new Request(`http://localhost/api/trpc/${procedure}`, init));
    const ids = { locationId: cart.locationId, cartId: cart.cartId };

    const session = await call("checkout.paymentSession", {
      method: "POST",
      headers: { "content-type": "application/json", "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
      body: JSON.stringify(ids),
    });
    expect(session.status).toBe(200);
    expect(session.headers.get("etag")).toBe(`"cart-${Number(/\d+/.exec(cart.etag)?.[0]) + 1}"`);
    const sessionBody = (await session.json()) as { result: { data: SessionBody } };
    expect(sessionBody.result.data.quote).toMatchObject({ revision: cart.quoteFingerprint, total: { amount: cart.total, currency: "USD" } });

    const payment = await call("checkout.payments", {
      method: "POST",
      headers: { "content-type": "application/json", "X-Cart-Token": cart.token, "Idempotency-Key": idemKey() },
      body: JSON.stringify({ ...ids, quoteFingerprint: cart.quoteFingerprint, paymentMethodId: "pm_card_visa" }),
    });
    expect(((await payment.json()) as { result: { data: ResultBody } }).result.data.status).toBe("order_pending");

    const stale = await call("checkout.payments", {
      method: "POST",
      headers: { "content-type": "application/json", "X-Cart-Token": cart.token },
      body: JSON.stringify({ ...ids, quoteFingerprint: cart.quoteFingerprint }),
    });
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { error: { data: { appError: { code: string } } } }).error.data.appError.code).toBe("IDEMPOTENCY_KEY_REQUIRED");

    passAcceptance(app);
    const result = await call(`checkout.orderResult?input=${encodeURIComponent(JSON.stringify(ids))}`, { method: "GET", headers: { "X-Cart-Token": cart.token } });
    expect(((await result.json()) as { result: { data: ResultBody } }).result.data).toMatchObject({ status: "completed", receiptToken: expect.stringMatching(/^rt_/) as unknown });
  });
});
