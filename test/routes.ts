import { bearer, challenge, freshEmail, freshPhone, latestCode, signIn, startCustomerCart } from "./customer-helpers";
import { cartCredential, DUNE, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp } from "./harness";
import { appRouter } from "../server/routers";
import type { StorefrontMeta } from "../server/trpc/init";
import type { OperationKind } from "../server/trpc/operation-kinds";

/**
 * Every REST operation, with a valid request for each, so the cross-cutting rules can be asserted
 * once per rule for every route. A new procedure must be added here (routes.test.ts checks that the
 * table covers the router).
 */
/**
 * - cartWrite: a cart-scoped write without If-Match (reporting a payment, rating): credential and Idempotency-Key.
 * - receiptRead: a read whose credential is the receipt capability (X-Receipt-Token).
 * - customerRead / customerWrite: the signed-in customer's routes: bearer customer JWT (and Idempotency-Key for writes).
 */
export type Kind = OperationKind;

/**
 * What must exist before the route applies: a payment session or a paid and accepted order (of the
 * cart); a signed-in Harbor Kitchen customer; a login code waiting to be proven; a phone
 * verification code waiting to be proven; a card saved by a signed-in customer's paid order.
 */
export type Setup = "paymentSession" | "completedOrder" | "signedIn" | "loginChallenge" | "phoneChallenge" | "savedCard";

/** The signed-in customer of a prepared case, with what its setup created. */
export type PreparedCustomer = {
  token: string;
  id: string;
  email: string;
  phone?: { number: string; methodId: string; otp: string };
  savedPaymentId?: string;
};

export type PreparedCart = CartHandle & {
  itemId: string;
  quoteFingerprint: string;
  receiptId: string;
  receiptToken: string;
  customer?: PreparedCustomer;
  /** A login code sent to `identifier` and read from the outbox (not yet proven). */
  login?: { identifier: string; methodId: string; otp: string };
};

/** How to call one operation validly; its kind, method and success status are read from the router (routeCases). */
export type RouteFixture = Omit<RouteCase, "kind" | "method" | "successStatus" | "revisionTagged">;

export type RouteCase = {
  name: string;
  procedure: string;
  kind: Kind;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (cart: PreparedCart) => string;
  body?: (cart: PreparedCart) => Record<string, unknown>;
  /** The fulfilment method of the cart the route needs (default takeout). */
  fulfillmentMethod?: "delivery" | "table_side";
  setup?: Setup;
  /** When the success status is not 200. */
  successStatus?: number;
  /** A read whose ETag is the cart's revision, which answers If-None-Match with 200 (StorefrontMeta.revisionTagged). */
  revisionTagged?: true;
  /** False when a cart mutation answers something other than the Cart (its new revision is then read from the cart). */
  returnsCart?: false;
  /** For paths without a location: the path with an invalid parameter, and the field the 400 must name. */
  invalidPath?: (cart: PreparedCart) => string;
  invalidParam?: RegExp;
  /** The path has no parameters, so the invalid-path-parameter rule does not apply. */
  noPathParameters?: true;
  /** A customer route whose path names a merchant's resource (a location): another merchant's customer gets 403 there. */
  merchantScoped?: true;
  /**
   * Tables a refused request may add rows to by design: a wrong one-time code is recorded against
   * its identifier (the per-identifier limit), although the request fails.
   */
  refusalMayRecord?: string[];
};

const cartPath = (cart: PreparedCart) => `/locations/${cart.locationId}/carts/${cart.cartId}`;

const fixtures: RouteFixture[] = [
  { name: "GET location by slug", procedure: "catalog.location", path: () => `/locations/${HARBOR.slug}` },
  { name: "GET menus", procedure: "catalog.menus", path: () => `/locations/${HARBOR.locationId}/menus` },
  { name: "GET products", procedure: "catalog.products", path: () => `/locations/${HARBOR.locationId}/products` },
  { name: "GET popular products", procedure: "catalog.popularProducts", path: () => `/locations/${HARBOR.locationId}/products/popular` },
  { name: "GET product", procedure: "catalog.product", path: () => `/locations/${HARBOR.locationId}/products/prd_hk_clam_chowder` },
  { name: "GET time intervals", procedure: "catalog.timeIntervals", path: () => `/locations/${DUNE.locationId}/time-intervals` },
  { name: "GET gratuity", procedure: "catalog.gratuity", path: () => `/locations/${HARBOR.locationId}/gratuity` },
  { name: "GET redirect", procedure: "catalog.redirect", path: () => `/locations/${HARBOR.locationId}/redirect` },
  { name: "GET payment config", procedure: "checkout.config", path: () => `/locations/${HARBOR.locationId}/payment-config` },
  {
    name: "POST ordering session",
    procedure: "carts.createOrderingSession",
    path: () => `/locations/${HARBOR.locationId}/ordering-sessions`,
    body: () => ({ fulfillmentMethod: "takeout" }),
  },
  { name: "GET cart", procedure: "carts.get", path: cartPath },
  {
    name: "POST cart item",
    procedure: "carts.addItem",
    path: (cart) => `${cartPath(cart)}/items`,
    body: () => ({ productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" }),
  },
  {
    name: "PATCH item quantity",
    procedure: "carts.updateItemQuantity",
    path: (cart) => `${cartPath(cart)}/cart-item/${cart.itemId}/quantity`,
    body: () => ({ quantity: 3 }),
  },
  { name: "PUT order time", procedure: "carts.updateOrderTime", path: (cart) => `${cartPath(cart)}/update-order-time`, body: () => ({ pickupType: "ASAP" }) },
  { name: "PUT gratuity", procedure: "carts.setGratuity", path: (cart) => `${cartPath(cart)}/gratuity`, body: () => ({ rate: "0.18" }) },
  {
    name: "POST apply discount",
    procedure: "carts.applyDiscount",
    path: (cart) => `/locations/${cart.locationId}/discounts/apply-discount`,
    body: (cart) => ({ cartId: cart.cartId, code: "FIVEOFF" }),
  },
  {
    name: "DELETE discount",
    procedure: "carts.removeDiscount",
    path: (cart) => `/locations/${cart.locationId}/discounts/apply-discount?cartId=${cart.cartId}`,
  },
  { name: "DELETE cart (expire)", procedure: "carts.expire", path: cartPath },
  {
    name: "PUT set delivery",
    procedure: "carts.setDelivery",
    path: (cart) => `${cartPath(cart)}/set-delivery`,
    body: () => ({ ...deliveryAddressNearHarbor }),
    fulfillmentMethod: "delivery",
  },
  {
    name: "PUT courier tip",
    procedure: "carts.setCourierTip",
    path: (cart) => `${cartPath(cart)}/courier-tip`,
    body: () => ({ amount: "3.00" }),
    fulfillmentMethod: "delivery",
  },
  {
    name: "PUT service details",
    procedure: "carts.setServiceDetails",
    path: (cart) => `${cartPath(cart)}/service-details`,
    body: () => ({ tableServiceInfo: { tableNumber: "12" } }),
    fulfillmentMethod: "table_side",
  },
  { name: "PUT validate and update", procedure: "carts.validateAndUpdate", path: (cart) => `${cartPath(cart)}/validate-and-update`, body: () => ({}) },
  {
    name: "POST payment session",
    procedure: "checkout.paymentSession",
    path: (cart) => `${cartPath(cart)}/payment-session`,
    body: () => ({}),
    returnsCart: false,
  },
  {
    name: "POST payments",
    procedure: "checkout.payments",
    path: (cart) => `${cartPath(cart)}/payments`,
    body: (cart) => ({ quoteFingerprint: cart.quoteFingerprint, paymentMethodId: "pm_card_visa" }),
    setup: "paymentSession",
  },
  { name: "GET order result", procedure: "checkout.orderResult", path: (cart) => `${cartPath(cart)}/order-result` },
  {
    name: "POST rating",
    procedure: "checkout.rating",
    path: (cart) => `${cartPath(cart)}/rating`,
    body: () => ({ rating: 5, comment: "Warm and quick" }),
    setup: "completedOrder",
  },
  {
    name: "GET receipt",
    procedure: "receipts.get",
    path: (cart) => `/receipts/${cart.receiptId}`,
    setup: "completedOrder",
    invalidPath: () => `/receipts/${"x".repeat(129)}`,
    invalidParam: /receiptId/,
  },
];

const customerSetups = new Set<Setup>(["signedIn", "phoneChallenge", "savedCard"]);

/** Customer sign-in and the signed-in customer's data. */
fixtures.push(
  {
    name: "POST customer login",
    procedure: "customer.login",
    path: () => "/customer/auth/login",
    body: (cart) => ({ merchantSlug: HARBOR.merchantSlug, identifierString: cart.login?.identifier ?? "someone@example.com" }),
    setup: "loginChallenge",
    noPathParameters: true,
  },
  {
    name: "POST customer verify-otp",
    procedure: "customer.verifyOtp",
    path: () => "/customer/auth/verify-otp",
    body: (cart) => ({
      merchantSlug: HARBOR.merchantSlug,
      identifierString: cart.login?.identifier ?? "someone@example.com",
      methodId: cart.login?.methodId ?? "otp_x",
      otp: cart.login?.otp ?? "000000",
    }),
    setup: "loginChallenge",
    noPathParameters: true,
    refusalMayRecord: ["otp_failures"],
  },
  { name: "DELETE customer logout", procedure: "customer.logout", path: () => "/customer/logout", setup: "signedIn", noPathParameters: true },
  { name: "GET customer", procedure: "customer.get", path: () => "/customer", setup: "signedIn", noPathParameters: true },
  { name: "GET customer orders", procedure: "customer.orders", path: () => "/customer/orders", setup: "signedIn", noPathParameters: true },
  { name: "GET customer addresses", procedure: "customer.addresses", path: () => "/customer/addresses", setup: "signedIn", noPathParameters: true },
  { name: "GET saved payments", procedure: "customer.savedPayments", path: () => "/customer/saved-payments", setup: "signedIn", noPathParameters: true },
  {
    name: "DELETE saved payment",
    procedure: "customer.deleteSavedPayment",
    path: (cart) => `/customer/saved-payments/${cart.customer?.savedPaymentId ?? "pm_x"}`,
    setup: "savedCard",
    invalidPath: () => `/customer/saved-payments/${"x".repeat(129)}`,
    invalidParam: /paymentId/,
  },
  {
    name: "GET loyalty ledger",
    procedure: "customer.loyaltyLedger",
    path: (cart) => `/customer/locations/${cart.locationId}/loyalty/ledger`,
    setup: "signedIn",
    merchantScoped: true,
  },
  {
    name: "POST phone verification",
    procedure: "customer.startPhoneVerification",
    path: () => "/customer/phone-verification",
    body: (cart) => ({ phoneNumber: cart.customer?.phone?.number ?? "+16175550100" }),
    setup: "phoneChallenge",
    noPathParameters: true,
  },
  {
    name: "POST phone verification confirmation",
    procedure: "customer.confirmPhoneVerification",
    path: () => "/customer/phone-verification/confirmation",
    body: (cart) => ({ phoneNumber: cart.customer?.phone?.number ?? "+16175550100", methodId: cart.customer?.phone?.methodId ?? "otp_x", otp: cart.customer?.phone?.otp ?? "000000" }),
    setup: "phoneChallenge",
    noPathParameters: true,
    refusalMayRecord: ["otp_failures"],
  },
  {
    name: "POST customer cart",
    procedure: "customer.createCart",
    path: (cart) => `/locations/${cart.locationId}/carts`,
    body: () => ({ fulfillmentMethod: "takeout" }),
    setup: "signedIn",
    merchantScoped: true,
  },
);

/**
 * Every operation's kind, method and success status come from its procedure's meta (the one
 * declaration, server/routers/meta.ts); the fixtures above only say how to call it validly.
 */
export const routeCases: RouteCase[] = fixtures.map((fixture) => {
  const meta = procedureMeta(fixture.procedure);
  if (!meta.kind || !meta.openapi) throw new Error(`${fixture.procedure}: no kind or REST path in its meta`);
  return {
    ...fixture,
    kind: meta.kind,
    method: meta.openapi.method,
    ...(meta.successStatus !== undefined ? { successStatus: meta.successStatus } : {}),
    ...(meta.revisionTagged ? { revisionTagged: true as const } : {}),
  };
});

function procedureMeta(name: string): StorefrontMeta {
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: StorefrontMeta } } | undefined>)[name];
  if (!procedure?._def.meta) throw new Error(`test/routes.ts names ${name}, which is not a procedure of the router`);
  return procedure._def.meta;
}

/** About 0.6 km from Harbor Kitchen Downtown: well inside the simulated courier's default radius. */
export const deliveryAddressNearHarbor = {
  street: "1 City Hall Square",
  city: "Boston",
  state: "MA",
  zipCode: "02201",
  country: "United States",
  lat: 42.3603,
  lng: -71.0578,
};

/** Burger needs its required single-choice groups; looked up from the seed so the table stays valid. */
export let burgerSelections: { modifierGroupId: string; optionId: string }[] = [];

export async function loadFixtures(app: TestApp): Promise<void> {
  const product = await app.call("GET", `/locations/${HARBOR.locationId}/products/prd_hk_smash_burger`);
  const groups = (product.body as { modifierGroups: { id: string; minSelections: number; options: { id: string; available: boolean }[] }[] }).modifierGroups;
  burgerSelections = groups
    .filter((group) => group.minSelections > 0)
    .map((group) => ({ modifierGroupId: group.id, optionId: group.options.find((option) => option.available)?.id ?? "" }));
}

/**
 * A cart with two lines (subtotal high enough for every discount) and WELCOME10 applied, for the
 * route's fulfilment method, then the route's setup. The cart is a guest cart, or with
 * `owner: "customer"` (and for a saved card) the cart of a freshly signed-in customer, whose token is
 * then its credential.
 */
export async function prepareCart(app: TestApp, route?: Pick<RouteCase, "fulfillmentMethod" | "setup">, options: { owner?: "guest" | "customer" } = {}): Promise<PreparedCart> {
  const setup = route?.setup;
  const ownedByCustomer = options.owner === "customer" || setup === "savedCard";
  const signedIn = ownedByCustomer || (setup !== undefined && customerSetups.has(setup)) ? await signIn(app) : undefined;
  const fulfillmentMethod = route?.fulfillmentMethod ?? "takeout";
  const cart = signedIn && ownedByCustomer ? await startCustomerCart(app, signedIn.token, HARBOR.locationId, fulfillmentMethod) : await startCart(app, HARBOR.locationId, fulfillmentMethod);
  const added = await mutate(app, cart, "POST", "/items", { productId: "prd_hk_smash_burger", quantity: 3, selections: burgerSelections, itemUnavailableAction: "remove_item" });
  if (added.status !== 200) throw new Error(`prepare: add item ${added.status} ${added.text}`);
  const itemId = (added.body as { items: { id: string }[] }).items[0]?.id ?? "";
  const discounted = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
    headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() },
    body: { cartId: cart.cartId, code: "WELCOME10" },
  });
  if (discounted.status !== 200) throw new Error(`prepare: discount ${discounted.status} ${discounted.text}`);
  cart.etag = discounted.headers.get("etag") ?? "";
  const prepared: PreparedCart = {
    ...cart,
    itemId,
    quoteFingerprint: (discounted.body as { quoteFingerprint: string }).quoteFingerprint,
    receiptId: "",
    receiptToken: "",
    ...(signedIn ? { customer: { token: signedIn.token, id: signedIn.customer.id, email: signedIn.customer.customerEmail } } : {}),
  };
  switch (setup) {
    case undefined:
    case "signedIn":
      return prepared;
    case "paymentSession":
    case "completedOrder":
      return checkoutSetup(app, prepared, setup);
    case "savedCard":
      return withSavedCard(app, await checkoutSetup(app, prepared, "completedOrder"));
    case "loginChallenge": {
      const identifier = freshEmail("login");
      return { ...prepared, login: { identifier, ...(await challenge(app, HARBOR.merchantSlug, identifier)) } };
    }
    case "phoneChallenge":
      return withPhoneChallenge(app, prepared);
  }
}

/** The signed-in customer asked to verify a fresh number; the code is read from the outbox. */
async function withPhoneChallenge(app: TestApp, cart: PreparedCart): Promise<PreparedCart> {
  if (!cart.customer) throw new Error("prepare: phone challenge needs a signed-in customer");
  const number = freshPhone();
  const started = await app.call("POST", "/customer/phone-verification", { headers: { ...bearer(cart.customer.token), "Idempotency-Key": idemKey() }, body: { phoneNumber: number } });
  if (started.status !== 200) throw new Error(`prepare: phone verification ${started.status} ${started.text}`);
  const { methodId } = started.body as { methodId: string };
  return { ...cart, customer: { ...cart.customer, phone: { number, methodId, otp: await latestCode(app, number) } } };
}

/** The card the customer's paid order saved. */
async function withSavedCard(app: TestApp, cart: PreparedCart): Promise<PreparedCart> {
  if (!cart.customer) throw new Error("prepare: a saved card needs a signed-in customer");
  const listed = await app.call("GET", "/customer/saved-payments", { headers: bearer(cart.customer.token) });
  const id = (listed.body as { paymentMethods?: { id: string }[] }).paymentMethods?.[0]?.id;
  if (!id) throw new Error(`prepare: no saved card ${listed.text}`);
  return { ...cart, customer: { ...cart.customer, savedPaymentId: id } };
}

/** Takes a prepared cart through checkout: its payment session, and for a completed order the payment and the kitchen's acceptance. */
async function checkoutSetup(app: TestApp, cart: PreparedCart, setup: Setup): Promise<PreparedCart> {
  const base = `/locations/${cart.locationId}/carts/${cart.cartId}`;
  const session = await app.call("POST", `${base}/payment-session`, { headers: { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() }, body: {} });
  if (session.status !== 200) throw new Error(`prepare: payment session ${session.status} ${session.text}`);
  cart.etag = session.headers.get("etag") ?? "";
  if (setup === "paymentSession") return cart;
  const paid = await app.call("POST", `${base}/payments`, {
    headers: { ...cartCredential(cart), "Idempotency-Key": idemKey() },
    body: { quoteFingerprint: cart.quoteFingerprint, paymentMethodId: "pm_card_visa" },
  });
  if (paid.status !== 200) throw new Error(`prepare: payment ${paid.status} ${paid.text}`);
  app.clock.now = new Date(app.clock.now.getTime() + (app.env.ORDER_ACCEPT_DELAY_SECONDS + 1) * 1000);
  const result = await app.call("GET", `${base}/order-result`, { headers: cartCredential(cart) });
  const body = result.body as { status: string; receiptId?: string; receiptToken?: string };
  // Only a cart capability receives a receipt capability; a customer opens receipts with their token.
  if (body.status !== "completed" || !body.receiptId || (!body.receiptToken && !cart.bearer)) throw new Error(`prepare: order result ${result.text}`);
  const read = await app.call("GET", base, { headers: cartCredential(cart) });
  return { ...cart, etag: read.headers.get("etag") ?? "", receiptId: body.receiptId, receiptToken: body.receiptToken ?? "" };
}

/** Headers that make a request fully valid for its kind. */
export function validHeaders(route: RouteCase, cart: PreparedCart): Record<string, string> {
  switch (route.kind) {
    case "anonymousRead":
      return {};
    case "cartRead":
      return cartCredential(cart);
    case "anonymousWrite":
      return { "Idempotency-Key": idemKey() };
    case "cartMutation":
      return { ...cartCredential(cart), "If-Match": cart.etag, "Idempotency-Key": idemKey() };
    case "checkout":
      return { ...cartCredential(cart), "Idempotency-Key": idemKey() };
    case "receiptRead":
      return cart.receiptToken || !cart.bearer ? { "X-Receipt-Token": cart.receiptToken } : cartCredential(cart);
    case "customerRead":
      return bearer(cart.customer?.token ?? "");
    case "customerMutation":
      return { ...bearer(cart.customer?.token ?? ""), "Idempotency-Key": idemKey() };
  }
}

export async function send(app: TestApp, route: RouteCase, cart: PreparedCart, headers: Record<string, string>, options: { body?: unknown; pathSuffix?: string; ip?: string } = {}) {
  return app.call(route.method, route.path(cart) + (options.pathSuffix ?? ""), { headers, body: options.body ?? route.body?.(cart), ip: options.ip });
}
