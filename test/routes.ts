import { DUNE, HARBOR, idemKey, mutate, startCart, type CartHandle, type TestApp } from "./harness";

/**
 * Every REST operation, with a valid request for each, so the cross-cutting rules can be asserted
 * once per rule for every route. A new procedure must be added here (routes.test.ts checks that the
 * table covers the router).
 */
export type Kind = "anonymousRead" | "cartRead" | "cartMutation" | "write";

export type PreparedCart = CartHandle & { itemId: string };

export type RouteCase = {
  name: string;
  procedure: string;
  kind: Kind;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (cart: PreparedCart) => string;
  body?: (cart: PreparedCart) => Record<string, unknown>;
};

const cartPath = (cart: PreparedCart) => `/locations/${cart.locationId}/carts/${cart.cartId}`;

export const routeCases: RouteCase[] = [
  { name: "GET location by slug", procedure: "catalog.location", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.slug}` },
  { name: "GET menus", procedure: "catalog.menus", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/menus` },
  { name: "GET products", procedure: "catalog.products", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/products` },
  { name: "GET popular products", procedure: "catalog.popularProducts", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/products/popular` },
  { name: "GET product", procedure: "catalog.product", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/products/prd_hk_clam_chowder` },
  { name: "GET time intervals", procedure: "catalog.timeIntervals", kind: "anonymousRead", method: "GET", path: () => `/locations/${DUNE.locationId}/time-intervals` },
  { name: "GET gratuity", procedure: "catalog.gratuity", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/gratuity` },
  { name: "GET redirect", procedure: "catalog.redirect", kind: "anonymousRead", method: "GET", path: () => `/locations/${HARBOR.locationId}/redirect` },
  {
    name: "POST ordering session",
    procedure: "carts.createOrderingSession",
    kind: "write",
    method: "POST",
    path: () => `/locations/${HARBOR.locationId}/ordering-sessions`,
    body: () => ({ fulfillmentMethod: "takeout" }),
  },
  { name: "GET cart", procedure: "carts.get", kind: "cartRead", method: "GET", path: cartPath },
  {
    name: "POST cart item",
    procedure: "carts.addItem",
    kind: "cartMutation",
    method: "POST",
    path: (cart) => `${cartPath(cart)}/items`,
    body: () => ({ productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" }),
  },
  {
    name: "PATCH item quantity",
    procedure: "carts.updateItemQuantity",
    kind: "cartMutation",
    method: "PATCH",
    path: (cart) => `${cartPath(cart)}/cart-item/${cart.itemId}/quantity`,
    body: () => ({ quantity: 3 }),
  },
  { name: "PUT order time", procedure: "carts.updateOrderTime", kind: "cartMutation", method: "PUT", path: (cart) => `${cartPath(cart)}/update-order-time`, body: () => ({ pickupType: "ASAP" }) },
  { name: "PUT gratuity", procedure: "carts.setGratuity", kind: "cartMutation", method: "PUT", path: (cart) => `${cartPath(cart)}/gratuity`, body: () => ({ rate: "0.18" }) },
  {
    name: "POST apply discount",
    procedure: "carts.applyDiscount",
    kind: "cartMutation",
    method: "POST",
    path: (cart) => `/locations/${cart.locationId}/discounts/apply-discount`,
    body: (cart) => ({ cartId: cart.cartId, code: "FIVEOFF" }),
  },
  {
    name: "DELETE discount",
    procedure: "carts.removeDiscount",
    kind: "cartMutation",
    method: "DELETE",
    path: (cart) => `/locations/${cart.locationId}/discounts/apply-discount?cartId=${cart.cartId}`,
  },
  { name: "DELETE cart (expire)", procedure: "carts.expire", kind: "cartMutation", method: "DELETE", path: cartPath },
];

/** Burger needs its required single-choice groups; looked up from the seed so the table stays valid. */
export let burgerSelections: { modifierGroupId: string; optionId: string }[] = [];

export async function loadFixtures(app: TestApp): Promise<void> {
  const product = await app.call("GET", `/locations/${HARBOR.locationId}/products/prd_hk_smash_burger`);
  const groups = (product.body as { modifierGroups: { id: string; minSelections: number; options: { id: string; available: boolean }[] }[] }).modifierGroups;
  burgerSelections = groups
    .filter((group) => group.minSelections > 0)
    .map((group) => ({ modifierGroupId: group.id, optionId: group.options.find((option) => option.available)?.id ?? "" }));
}

/** A cart with two lines (subtotal high enough for every discount) and WELCOME10 applied. */
export async function prepareCart(app: TestApp): Promise<PreparedCart> {
  const cart = await startCart(app);
  const added = await mutate(app, cart, "POST", "/items", { productId: "prd_hk_smash_burger", quantity: 3, selections: burgerSelections, itemUnavailableAction: "remove_item" });
  if (added.status !== 200) throw new Error(`prepare: add item ${added.status} ${added.text}`);
  const itemId = (added.body as { items: { id: string }[] }).items[0]?.id ?? "";
  const discounted = await app.call("POST", `/locations/${cart.locationId}/discounts/apply-discount`, {
    headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
    body: { cartId: cart.cartId, code: "WELCOME10" },
  });
  if (discounted.status !== 200) throw new Error(`prepare: discount ${discounted.status} ${discounted.text}`);
  cart.etag = discounted.headers.get("etag") ?? "";
  return { ...cart, itemId };
}

/** Headers that make a request fully valid for its kind. */
export function validHeaders(route: RouteCase, cart: PreparedCart): Record<string, string> {
  switch (route.kind) {
    case "anonymousRead":
      return {};
    case "cartRead":
      return { "X-Cart-Token": cart.token };
    case "write":
      return { "Idempotency-Key": idemKey() };
    case "cartMutation":
      return { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() };
  }
}

export async function send(app: TestApp, route: RouteCase, cart: PreparedCart, headers: Record<string, string>, options: { body?: unknown; pathSuffix?: string; ip?: string } = {}) {
  return app.call(route.method, route.path(cart) + (options.pathSuffix ?? ""), { headers, body: options.body ?? route.body?.(cart), ip: options.ip });
}
