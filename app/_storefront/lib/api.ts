import { bearer, newIdempotencyKey, type CartCall, type CartIntent, type CartRef, type CartTransport, type CheckoutCall, type CredentialHeaders } from "./cart-session";
import type { ValidateInput } from "./revalidation";
import { call, rpc, withHeaders } from "./rpc";
import type { CartItem, DeliveryAddressInput, GratuityChoice, OrderResult, OrderTimeChoice, PaymentSession, SelectionInput, ServiceDetailsInput } from "./types";

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
  startCustomerCart: (input, headers) => call(() => rpc.customer.createCart.mutate(input, withHeaders(headers))),
  readCart: (ref, headers) => call(() => rpc.carts.get.query(ref, withHeaders(headers))),
};

export type NewItem = { productId: string; quantity: number; selections: SelectionInput[]; specialInstructions?: string };

/** A cart line as an item to add again (a guest cart's lines moving into the customer's cart). */
export function lineAsNewItem(item: CartItem): NewItem {
  return {
    productId: item.productId,
    quantity: item.quantity,
    selections: item.selections.map((selection) => ({ modifierGroupId: selection.modifierGroupId, optionId: selection.optionId, quantity: selection.quantity })),
    ...(item.specialInstructions ? { specialInstructions: item.specialInstructions } : {}),
  };
}

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

  /** Asks the courier for a quote first; a refused address answers VALIDATION_ERROR with details.reason. */
  setDelivery:
    (address: DeliveryAddressInput): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.setDelivery.mutate({ ...ref, ...address }, withHeaders(headers))),

  /** Where a table-side or room-service order is served (checkout refuses those carts without it). */
  serviceDetails:
    (details: ServiceDetailsInput): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.setServiceDetails.mutate({ ...ref, ...details }, withHeaders(headers))),

  courierTip:
    (amount: string): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.setCourierTip.mutate({ ...ref, amount }, withHeaders(headers))),

  /** `{}` checks (and applies what it can); `{ accept, quoteFingerprint }` also accepts the reviewed quote. */
  validate:
    (input: ValidateInput): CartIntent =>
    (ref, headers) =>
      call(() => rpc.carts.validateAndUpdate.mutate({ ...ref, ...input }, withHeaders(headers))),
};

/** Checkout writes: they move the cart's revision but answer a payment session or an order result. */
export const checkoutCalls = {
  paymentSession: (): CartCall<PaymentSession> => (ref, headers) => call(() => rpc.checkout.paymentSession.mutate(ref, withHeaders(headers))),

  /** paymentMethodId: the simulated processor's test card; omitted after confirming with Stripe.js. */
  reportPayment:
    (quoteFingerprint: string, paymentMethodId?: string): CheckoutCall<OrderResult> =>
    (ref, headers) =>
      call(() => rpc.checkout.payments.mutate({ ...ref, quoteFingerprint, ...(paymentMethodId ? { paymentMethodId } : {}) }, withHeaders(headers))),
};

/** Checkout reads, with the credential each needs. */
export const checkoutApi = {
  config: (locationId: string) => call(() => rpc.checkout.config.query({ locationId }, withHeaders())),
  /** With the cart's capability the completed result carries a receiptToken; with a customer token it does not (the token opens the receipt). */
  orderResult: (ref: CartRef, credential: CredentialHeaders) => call(() => rpc.checkout.orderResult.query(ref, withHeaders(credential))),
  receipt: (receiptId: string, credential: { "X-Receipt-Token": string } | { Authorization: string }) => call(() => rpc.receipts.get.query({ receiptId }, withHeaders(credential))),
};

const asCustomer = (token: string) => withHeaders({ Authorization: bearer(token) });

/** Customer sign-in and the signed-in customer's data; every write with a fresh Idempotency-Key. */
export const customerApi = {
  login: (merchantSlug: string, identifierString: string) =>
    call(() => rpc.customer.login.mutate({ merchantSlug, identifierString }, withHeaders({ "Idempotency-Key": newIdempotencyKey() }))),
  verifyOtp: (input: { merchantSlug: string; identifierString: string; methodId: string; otp: string; customerName?: string }) =>
    call(() => rpc.customer.verifyOtp.mutate(input, withHeaders({ "Idempotency-Key": newIdempotencyKey() }))),
  logout: (token: string) =>
    call(() => rpc.customer.logout.mutate({}, withHeaders({ "Idempotency-Key": newIdempotencyKey(), Authorization: bearer(token) }))),
  profile: (token: string) => call(() => rpc.customer.get.query({}, asCustomer(token))),
  orders: (token: string, cursor?: string) => call(() => rpc.customer.orders.query({ limit: 10, ...(cursor ? { cursor } : {}) }, asCustomer(token))),
  loyalty: (token: string, locationId: string, cursor?: string) =>
    call(() => rpc.customer.loyaltyLedger.query({ locationId, limit: 20, ...(cursor ? { cursor } : {}) }, asCustomer(token))),
  receipt: (token: string, receiptId: string) => checkoutApi.receipt(receiptId, { Authorization: bearer(token) }),
};
