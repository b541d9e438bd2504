import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/schema";
import { bearer, customerOrder, signIn } from "../customer-helpers";
import { createTestApp, idemKey, type TestApp } from "../harness";
import { FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "../stripe-fake";

/**
 * Saved cards with Stripe configured: the real SDK against the local fake. Paying while signed in
 * creates the Stripe customer once and saves the card to it (setup_future_usage); the customer
 * lists and detaches their cards through the SDK.
 */
let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: "whsec_customer_stripe_test", STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0" },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

type Cards = { paymentMethods: { id: string; brand: string; last4: string; expMonth: number; expYear: number }[] };
const cardsOf = async (token: string) => (await app.call("GET", "/customer/saved-payments", { headers: bearer(token) })).body as Cards;
const remove = (token: string, id: string) => app.call("DELETE", `/customer/saved-payments/${id}`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });

describe("saved cards with Stripe", () => {
  it("creates the Stripe customer once, saves the card of each payment to it, and lists and detaches them", async () => {
    const signedIn = await signIn(app);
    expect(await cardsOf(signedIn.token)).toEqual({ paymentMethods: [] });
    expect(fake.requests.filter((request) => request.path === "/v1/payment_methods")).toEqual([]);

    await customerOrder(app, signedIn.token, { paymentMethodId: "pm_card_amex" });
    const [row] = await app.deps.database.db.select().from(customers).where(eq(customers.id, signedIn.customer.id));
    const stripeCustomer = row?.processorCustomerId ?? "";
    expect(stripeCustomer).toMatch(/^cus_/);
    const creations = fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/customers");
    expect(creations).toHaveLength(1);
    expect(creations[0]).toMatchObject({ idempotencyKey: `${signedIn.customer.id}:processor-customer`, body: { email: signedIn.identifier, metadata: { customerId: signedIn.customer.id } } });
    const intentCreate = fake.requests.find((request) => request.method === "POST" && request.path === "/v1/payment_intents" && request.body.customer === stripeCustomer);
    expect(intentCreate?.body).toMatchObject({ customer: stripeCustomer, setup_future_usage: "on_session", capture_method: "manual" });

    await customerOrder(app, signedIn.token, { paymentMethodId: "pm_card_visa" });
    expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/customers")).toHaveLength(1);

    const { paymentMethods } = await cardsOf(signedIn.token);
    expect(paymentMethods.map(({ brand, last4, expMonth, expYear }) => ({ brand, last4, expMonth, expYear })).sort((a, b) => a.brand.localeCompare(b.brand))).toEqual([
      { brand: "amex", last4: "8431", expMonth: 12, expYear: 2034 },
      { brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 },
    ]);
    const listing = fake.requests.filter((request) => request.method === "GET" && request.path === "/v1/payment_methods").at(-1);
    expect(listing?.body).toMatchObject({ customer: stripeCustomer, type: "card" });

    const target = paymentMethods[0]?.id ?? "";
    const removed = await remove(signedIn.token, target);
    expect(removed.status, removed.text).toBe(200);
    expect(fake.requests.filter((request) => request.path === `/v1/payment_methods/${target}/detach`)).toHaveLength(1);
    expect((await cardsOf(signedIn.token)).paymentMethods.map((card) => card.id)).toEqual([paymentMethods[1]?.id]);
  });

  it("refuses to detach another customer's card (404) without asking Stripe to detach it", async () => {
    const owner = await signIn(app);
    await customerOrder(app, owner.token);
    const [card] = (await cardsOf(owner.token)).paymentMethods;
    const other = await signIn(app);
    await customerOrder(app, other.token);
    const attempt = await remove(other.token, card?.id ?? "");
    expect(attempt.status).toBe(404);
    expect(fake.requests.filter((request) => request.path === `/v1/payment_methods/${card?.id ?? ""}/detach`)).toEqual([]);
    expect((await cardsOf(owner.token)).paymentMethods).toHaveLength(1);
    expect((await remove(other.token, "pm_does_not_exist")).status).toBe(404);
  });

  it("answers 503 when Stripe cannot be reached", async () => {
    const signedIn = await signIn(app);
    await customerOrder(app, signedIn.token);
    fake.inject({ method: "GET", path: /^\/v1\/payment_methods$/, kind: "status", status: 500 });
    const response = await app.call("GET", "/customer/saved-payments", { headers: bearer(signedIn.token) });
    expect(response.status).toBe(503);
    expect((response.body as { code: string }).code).toBe("DEPENDENCY_UNAVAILABLE");
  });
});
