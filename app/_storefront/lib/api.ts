import type { CartIntent, CartTransport } from "./cart-session";
import { call, rpc, withHeaders } from "./rpc";
import type { GratuityChoice, OrderTimeChoice, SelectionInput } from "./types";

/**
 * Every API call the storefront makes, by name. Reads are anonymous; cart writes are intents for
 * CartSession, which supplies X-Cart-Token, If-Match and Idempotency-Key per attempt.
 */
export const catalogApi = {
  location: (locationSlugOrId: string) => call(() => rpc.catalog.location.query({ locationSlugOrId }, withHeaders())),
  menus: (locationId: string, moment?: { orderDate: string; orderTime: string }) =>
    call(() => rpc.catalog.menus.query({ locationId, ...(moment ?? {}) }, withHeaders())),
  timeIntervals: (locationId: string, date?: string) => call(() => rpc.catalog.timeIntervals.query({ locationId, ...(date ? { date } : {}) }, withHeaders())),
  gratuity: (locationId: string) => call(() => rpc.catalog.gratuity.query({ locationId }, withHeaders())),
};

export const cartTransport: CartTransport = {
  startSession: (input, headers) => call(() => rpc.carts.createOrderingSession.mutate(input, withHeaders(headers))),
  readCart: (ref, headers) => call(() => rpc.carts.get.query(ref, withHeaders(headers))),
};

export type NewItem = { productId: string; quantity: number; selections: SelectionInput[]; specialInstructions?: string };

export const cartIntents = {
  addItem:
    (item: NewItem): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.addItem.mutate({ ...ref, ...item, itemUnavailableAction: "remove_item" }, withHeaders(headers))),

  /** 0 removes the line. */
  setQuantity:
    (itemId: string, quantity: number): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.updateItemQuantity.mutate({ ...ref, itemId, quantity }, withHeaders(headers))),

  orderTime:
    (choice: OrderTimeChoice): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.updateOrderTime.mutate({ ...ref, ...choice }, withHeaders(headers))),

  gratuity:
    (choice: GratuityChoice): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.setGratuity.mutate({ ...ref, ...choice }, withHeaders(headers))),

  applyDiscount:
    (code: string): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.applyDiscount.mutate({ ...ref, code }, withHeaders(headers))),

  removeDiscount: (): CartIntent => (ref, headers) => call(() => rpc.carts.removeDiscount.mutate(ref, withHeaders(headers))),

  expire: (): CartIntent => (ref, headers) => call(() => rpc.carts.expire.mutate(ref, withHeaders(headers))),
};
