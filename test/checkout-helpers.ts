import { count, eq } from "drizzle-orm";
import { carts, orders, paymentAttempts, paymentSessions } from "../db/schema";
import type { PaymentProcessor } from "../server/integrations/payments/types";
import { cartCredential, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp, type TestResponse } from "./harness";

/** Cart-shaped fields the checkout tests read. */
export type CartBody = { revision: number; status: string; quoteFingerprint: string; orderTotalWithServiceFeeAmount: number; lockedAt?: string | null; items: { id: string }[] };
export type SessionBody = { provider: string; clientSecret: string; quote: { revision: string; total: { amount: number; currency: string }; tip: { amount: number; currency: string } } };
export type ResultBody = { status: string; orderId?: string; receiptId?: string; receiptToken?: string; failure?: { code: string; message: string }; pollAfterMs?: number };

export type CheckoutCart = CartHandle & { quoteFingerprint: string; total: number };

/** One hummus at Dune Grill (Asia/Dubai): the item of the schedule and location tests there. */
export const duneHummus = { productId: "prd_dg_hummus", quantity: 1, selections: [], itemUnavailableAction: "remove_item" };
export const chowderCup = { productId: "prd_hk_clam_chowder", quantity: 1, selections: [{ modifierGroupId: "mg_hk_clam_chowder_size", optionId: "opt_hk_clam_chowder_bowl" }], itemUnavailableAction: "remove_item" };

export const cartUrl = (cart: { locationId: string; cartId: string }) => `/locations/${cart.locationId}/carts/${cart.cartId}`;

/** A Harbor Kitchen takeout cart with one chowder bowl ($12.95 + fees), priced and ready to pay. */
export async function pricedCart(app: TestApp, item: object = chowderCup, locationId = HARBOR.locationId): Promise<CheckoutCart> {
  const cart = await startCart(app, locationId);
  const added = await mutate(app, cart, "POST", "/items", item);
  if (added.status !== 200) throw new Error(`add item: ${added.status} ${added.text}`);
  const body = added.body as CartBody;
  return { ...cart, quoteFingerprint: body.quoteFingerprint, total: body.orderTotalWithServiceFeeAmount };
}

export async function readCart(app: TestApp, cart: CartHandle): Promise<CartBody> {
  const response = await app.call("GET", cartUrl(cart), { headers: cartCredential(cart) });
  if (response.status !== 200) throw new Error(`read cart: ${response.status} ${response.text}`);
  return response.body as CartBody;
}

/** Re-reads the cart and keeps the handle's ETag and quote current. */
export async function refresh(app: TestApp, cart: CheckoutCart): Promise<CartBody> {
  const body = await readCart(app, cart);
  cart.etag = `"cart-${body.revision}"`;
  cart.quoteFingerprint = body.quoteFingerprint;
  cart.total = body.orderTotalWithServiceFeeAmount;
  return body;
}

export async function paymentSession(app: TestApp, cart: CheckoutCart, key = idemKey()): Promise<TestResponse> {
  const response = await app.call("POST", `${cartUrl(cart)}/payment-session`, {
    headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": key },
    body: {},
  });
  if (response.status === 200) cart.etag = response.headers.get("etag") ?? cart.etag;
  return response;
}

export async function pay(app: TestApp, cart: CheckoutCart, paymentMethodId: string | undefined, options: { key?: string; quoteFingerprint?: string } = {}): Promise<TestResponse> {
  return app.call("POST", `${cartUrl(cart)}/payments`, {
    headers: { ...cartCredential(cart), "Idempotency-Key": options.key ?? idemKey() },
    body: { quoteFingerprint: options.quoteFingerprint ?? cart.quoteFingerprint, ...(paymentMethodId ? { paymentMethodId } : {}) },
  });
}

export async function orderResult(app: TestApp, cart: CartHandle, headers: Record<string, string> = cartCredential(cart)): Promise<TestResponse> {
  return app.call("GET", `${cartUrl(cart)}/order-result`, { headers });
}

/** Moves the injected clock past the simulated kitchen's acceptance delay. */
export function passAcceptance(app: TestApp): void {
  app.clock.now = new Date(app.clock.now.getTime() + (app.env.ORDER_ACCEPT_DELAY_SECONDS + 1) * 1000);
}

/** A paid, accepted order: its cart, and the receipt capability from the order result. */
export async function completedOrder(app: TestApp): Promise<{ cart: CheckoutCart; orderId: string; receiptId: string; receiptToken: string }> {
  return completeOrder(app, await pricedCart(app));
}

/** Pays the priced cart with a good card and waits out the kitchen's acceptance: the completed order's ids. */
export async function completeOrder(app: TestApp, cart: CheckoutCart): Promise<{ cart: CheckoutCart; orderId: string; receiptId: string; receiptToken: string }> {
  const session = await paymentSession(app, cart);
  if (session.status !== 200) throw new Error(`payment session: ${session.status} ${session.text}`);
  const paid = await pay(app, cart, "pm_card_visa");
  if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${paid.text}`);
  passAcceptance(app);
  const result = (await orderResult(app, cart)).body as ResultBody;
  if (result.status !== "completed" || !result.receiptId || !result.receiptToken || !result.orderId) throw new Error(`not completed: ${JSON.stringify(result)}`);
  return { cart, orderId: result.orderId, receiptId: result.receiptId, receiptToken: result.receiptToken };
}

export async function orderCount(app: TestApp, cartId: string): Promise<number> {
  const [row] = await app.deps.database.db.select({ n: count() }).from(orders).where(eq(orders.cartId, cartId));
  return row?.n ?? 0;
}

export async function attemptsOf(app: TestApp, cartId: string) {
  return app.deps.database.db.select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId));
}

/**
 * Wraps a processor so that a test can make one named call "crash" after the processor did the
 * work: the call succeeds at the processor, then throws before the service records the answer.
 */
export function crashSwitch() {
  const state: { after: keyof PaymentProcessor | undefined; wrap: (inner: PaymentProcessor) => PaymentProcessor } = {
    after: undefined,
    wrap: (inner) => {
      const wrap =
        <A extends unknown[], R>(name: keyof PaymentProcessor, call: (...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          const result = await call(...args);
          if (state.after === name) {
            state.after = undefined;
            throw new Error(`simulated crash after ${name}`);
          }
          return result;
        };
      return {
        name: inner.name,
        createOrUpdateIntent: wrap("createOrUpdateIntent", (request: Parameters<PaymentProcessor["createOrUpdateIntent"]>[0]) => inner.createOrUpdateIntent(request)),
        retrieveIntent: wrap("retrieveIntent", (intentId: string) => inner.retrieveIntent(intentId)),
        confirmIntent: wrap("confirmIntent", (request: Parameters<PaymentProcessor["confirmIntent"]>[0]) => inner.confirmIntent(request)),
        captureIntent: wrap("captureIntent", (request: Parameters<PaymentProcessor["captureIntent"]>[0]) => inner.captureIntent(request)),
        cancelIntent: wrap("cancelIntent", (request: Parameters<PaymentProcessor["cancelIntent"]>[0]) => inner.cancelIntent(request)),
        parseWebhookEvent: (rawBody, signature, receivedAt) => inner.parseWebhookEvent(rawBody, signature, receivedAt),
        cards: inner.cards,
      };
    },
  };
  return state;
}

/** The intent the cart's payment session recorded. */
export async function sessionIntentOf(app: TestApp, cartId: string): Promise<string> {
  const [row] = await app.deps.database.db.select().from(paymentSessions).where(eq(paymentSessions.cartId, cartId));
  if (!row?.intentId) throw new Error("no intent recorded");
  return row.intentId;
}

/** The cart's row as stored. */
export async function cartRowOf(app: TestApp, cartId: string) {
  const [row] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cartId));
  if (!row) throw new Error(`cart ${cartId} missing`);
  return row;
}

/** Moves the clock the service sees forward by `ms`. */
export function advanceClock(app: TestApp, ms: number): void {
  app.clock.now = new Date(app.clock.now.getTime() + ms);
}
