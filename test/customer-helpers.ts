import { randomBytes } from "node:crypto";
import { createDevOutboxHandler } from "../server/http/dev-outbox";
import { chowderCup, orderResult, passAcceptance, pay, paymentSession, refresh, type CheckoutCart, type ResultBody } from "./checkout-helpers";
import { cartCredential, HARBOR, idemKey, mutate, type CartHandle, type TestApp, type TestResponse } from "./harness";

/** Customer sign-in as a client does it: login, read the code where it was delivered, verify. */

export type OutboxMessage = { to: string; subject: string; text: string; createdAt: string };
export type CustomerBody = { id: string; profilePicture: string; customerEmail: string; customerName: string; lastName: string; phoneNumber: string; phoneNumberVerified: boolean };
export type SessionBody = { token: string; customer: CustomerBody };
export type SignedIn = { token: string; customer: CustomerBody; identifier: string };

let counter = 0;
const run = randomBytes(3).toString("hex");

/** A fresh e-mail address, so per-identifier limits of one test never touch another's. */
export function freshEmail(tag = "customer"): string {
  counter += 1;
  return `${tag}.${run}.${counter}@example.com`;
}

const phoneBase = 1000 + (randomBytes(2).readUInt16BE(0) % 8000);
/** A fresh, valid US number (617-555-xxxx) in E.164. */
export function freshPhone(): string {
  counter += 1;
  return `+1617555${String((phoneBase + counter) % 10_000).padStart(4, "0")}`;
}

/** GET /api/dev/outbox the way the storefront (and a developer) reads it. */
export async function readOutbox(app: TestApp, to?: string): Promise<{ status: number; messages: OutboxMessage[] }> {
  const handler = createDevOutboxHandler(() => Promise.resolve(app.deps));
  const query = to === undefined ? "" : `?to=${encodeURIComponent(to)}`;
  const response = await handler(new Request(`http://localhost/api/dev/outbox${query}`));
  const body = (await response.json()) as { messages?: OutboxMessage[] };
  return { status: response.status, messages: body.messages ?? [] };
}

/** The code of the newest message to `to`. */
export async function latestCode(app: TestApp, to: string): Promise<string> {
  const { messages } = await readOutbox(app, to);
  const code = /\b(\d{6})\b/.exec(messages[0]?.text ?? "")?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

export function requestCode(app: TestApp, merchantSlug: string, identifierString: string, options: { ip?: string; key?: string } = {}): Promise<TestResponse> {
  return app.call("POST", "/customer/auth/login", {
    headers: { "Idempotency-Key": options.key ?? idemKey() },
    body: { merchantSlug, identifierString },
    ip: options.ip,
  });
}

export function verifyCode(app: TestApp, body: Record<string, unknown>, options: { ip?: string; key?: string } = {}): Promise<TestResponse> {
  return app.call("POST", "/customer/auth/verify-otp", { headers: { "Idempotency-Key": options.key ?? idemKey() }, body, ip: options.ip });
}

/** A login challenge whose code was read from the outbox. */
export async function challenge(app: TestApp, merchantSlug: string, identifier: string): Promise<{ methodId: string; otp: string }> {
  const login = await requestCode(app, merchantSlug, identifier);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const { methodId } = login.body as { methodId: string };
  return { methodId, otp: await latestCode(app, identifier.trim().toLowerCase()) };
}

/** Signs in (creating the customer on first sign-in) and returns the bearer token. */
export async function signIn(app: TestApp, merchantSlug = HARBOR.merchantSlug, identifier = freshEmail(), profile: Record<string, string> = {}): Promise<SignedIn> {
  const { methodId, otp } = await challenge(app, merchantSlug, identifier);
  const verified = await verifyCode(app, { merchantSlug, identifierString: identifier, methodId, otp, ...profile });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
  const body = verified.body as SessionBody;
  return { token: body.token, customer: body.customer, identifier };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POST /locations/{locationId}/carts as the signed-in customer: a cart handle whose credential is the token. */
export async function startCustomerCart(app: TestApp, token: string, locationId = HARBOR.locationId, fulfillmentMethod = "takeout"): Promise<CartHandle> {
  const response = await app.call("POST", `/locations/${locationId}/carts`, { headers: { ...bearer(token), "Idempotency-Key": idemKey() }, body: { fulfillmentMethod } });
  if (response.status !== 201) throw new Error(`customer cart: ${response.status} ${response.text}`);
  const body = response.body as { cart: Record<string, unknown> & { id: string } };
  return { cartId: body.cart.id, token: "", bearer: token, etag: response.headers.get("etag") ?? "", cart: body.cart, locationId };
}

export function readCartAs(app: TestApp, cart: CartHandle): Promise<TestResponse> {
  return app.call("GET", `/locations/${cart.locationId}/carts/${cart.cartId}`, { headers: cartCredential(cart) });
}

/** A signed-in customer's paid, accepted order at Harbor Kitchen (takeout, or delivery to `delivery`). */
export async function customerOrder(
  app: TestApp,
  token: string,
  options: { delivery?: Record<string, unknown>; item?: object; paymentMethodId?: string } = {},
): Promise<{ cart: CheckoutCart; orderId: string; receiptId: string; subTotal: string }> {
  const handle = await startCustomerCart(app, token, HARBOR.locationId, options.delivery ? "delivery" : "takeout");
  const cart: CheckoutCart = { ...handle, quoteFingerprint: "", total: 0 };
  const added = await mutate(app, cart, "POST", "/items", options.item ?? chowderCup);
  if (added.status !== 200) throw new Error(`add item: ${added.status} ${added.text}`);
  if (options.delivery) {
    const delivered = await mutate(app, cart, "PUT", "/set-delivery", options.delivery);
    if (delivered.status !== 200) throw new Error(`set delivery: ${delivered.status} ${delivered.text}`);
  }
  const body = await refresh(app, cart);
  const session = await paymentSession(app, cart);
  if (session.status !== 200) throw new Error(`payment session: ${session.status} ${session.text}`);
  const paid = await pay(app, cart, options.paymentMethodId ?? "pm_card_visa");
  if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${paid.text}`);
  passAcceptance(app);
  const result = (await orderResult(app, cart)).body as ResultBody;
  if (result.status !== "completed" || !result.orderId || !result.receiptId) throw new Error(`not completed: ${JSON.stringify(result)}`);
  return { cart, orderId: result.orderId, receiptId: result.receiptId, subTotal: (body as unknown as { subTotal: string }).subTotal };
}
