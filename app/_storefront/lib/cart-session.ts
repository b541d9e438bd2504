import { isStorefrontError, StorefrontError } from "./errors";
import type { Cart, FulfilmentMethod } from "./types";

/**
 * The client's cart rules, in one place and free of React and of the transport:
 *
 * - The cart id, its cartAccessToken and the last revision seen are kept together, per location
 *   (localStorage in the browser), so a reload or a second tab finds the same cart.
 * - Every write gets a fresh Idempotency-Key. A write that got no answer (network error, timeout)
 *   or a "come back later" (IDEMPOTENCY_IN_PROGRESS, 503) is sent again *identically*, same key and
 *   same If-Match, so the server applies it at most once and replays the stored result.
 * - A CART_CONFLICT (another tab or device changed the cart) reloads the cart and runs the user's
 *   intent once more against the new revision, with a new key. Intents are re-runnable functions of
 *   the current cart (e.g. "add one chowder"), never a stale copy of the cart, so no one's item is
 *   overwritten and none is lost.
 * - Operations run one at a time per session, so one tab never races itself.
 * - Writes that move the revision but answer something else (a payment session, a payment report)
 *   follow the same rules and then re-read the cart, so the next write carries the new revision.
 * - Two kinds of cart: a guest's, whose credential is its cartAccessToken (X-Cart-Token), and a
 *   signed-in customer's, whose credential is the customer's token (Authorization: Bearer), asked
 *   for at each request so a sign-out takes effect at once. While a customer is signed in new
 *   carts are the customer's; `carryOver` moves a guest cart held from before the sign-in.
 */
export type CartHandle = {
  locationId: string;
  cartId: string;
  /** null: the signed-in customer's cart, whose credential is the customer's bearer token. */
  cartAccessToken: string | null;
  revision: number;
  fulfilmentMethod: FulfilmentMethod;
};

export type CartRef = { locationId: string; cartId: string };
/** The cart's credential on one request: its capability, or the signed-in customer's token. */
export type CredentialHeaders = { "X-Cart-Token": string } | { Authorization: string };
/** A cart-scoped write whose precondition is not the revision (reporting a payment): no If-Match. */
export type CheckoutHeaders = { "Idempotency-Key": string } & CredentialHeaders;
export type WriteHeaders = CheckoutHeaders & { "If-Match": string };

/** One change to the cart, re-runnable against whatever revision is current. */
export type CartIntent = (ref: CartRef, headers: WriteHeaders) => Promise<Cart>;
/** A revision-checked cart write that answers something other than the Cart (a payment session). */
export type CartCall<T> = (ref: CartRef, headers: WriteHeaders) => Promise<T>;
/** A cart-scoped write without If-Match (reporting a payment). */
export type CheckoutCall<T> = (ref: CartRef, headers: CheckoutHeaders) => Promise<T>;

export interface CartTransport {
  startSession(input: { locationId: string; fulfillmentMethod: FulfilmentMethod }, headers: { "Idempotency-Key": string }): Promise<{ cart: Cart; cartAccessToken?: string | undefined }>;
  /** A cart owned by the signed-in customer (no cartAccessToken: the bearer token is its credential). */
  startCustomerCart(input: { locationId: string; fulfillmentMethod: FulfilmentMethod }, headers: { "Idempotency-Key": string; Authorization: string }): Promise<{ cart: Cart }>;
  readCart(ref: CartRef, headers: CredentialHeaders): Promise<Cart>;
}

export interface HandleStore {
  read(locationId: string): CartHandle | null;
  write(handle: CartHandle): void;
  remove(locationId: string): void;
}

export type MutationResult = { cart: Cart; recoveredFromConflict: boolean };
/** `cart`: the cart re-read after the write; undefined when that read failed (the next write then conflicts and recovers). */
export type CallResult<T> = { value: T; cart: Cart | undefined; recoveredFromConflict: boolean };

export const handleStorageKey = (locationId: string) => `storefront.cart.${locationId}`;

export function ifMatch(revision: number): string {
  return `"cart-${revision}"`;
}

/** A fresh key per logical write: 16-128 of A-Z a-z 0-9 . _ : - (a UUID qualifies). */
export function newIdempotencyKey(): string {
  return `sf-${crypto.randomUUID()}`;
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

const methods: readonly FulfilmentMethod[] = ["takeout", "table_side", "room_service", "delivery"];

function parseHandle(text: string | null, locationId: string): CartHandle | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { cartId, cartAccessToken, revision, fulfilmentMethod } = value;
    if (
      value.locationId === locationId &&
      typeof cartId === "string" &&
      (typeof cartAccessToken === "string" || cartAccessToken === null) &&
      typeof revision === "number" &&
      Number.isSafeInteger(revision) &&
      revision >= 0 &&
      methods.includes(fulfilmentMethod as FulfilmentMethod)
    ) {
      return { locationId, cartId, cartAccessToken, revision, fulfilmentMethod: fulfilmentMethod as FulfilmentMethod };
    }
  } catch {
    // A corrupt entry is treated as no cart: the next write starts a new one.
  }
  return null;
}

export function storageHandleStore(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">): HandleStore {
  return {
    read: (locationId) => {
      try {
        return parseHandle(storage.getItem(handleStorageKey(locationId)), locationId);
      } catch {
        return null;
      }
    },
    write: (handle) => {
      try {
        storage.setItem(handleStorageKey(handle.locationId), JSON.stringify(handle));
      } catch {
        // Storage full or disabled (private mode): the cart still works for this page's lifetime.
      }
    },
    remove: (locationId) => {
      try {
        storage.removeItem(handleStorageKey(locationId));
      } catch {
        // See write.
      }
    },
  };
}

export function memoryHandleStore(): HandleStore {
  const entries = new Map<string, string>();
  return storageHandleStore({
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  });
}

export type CartSessionOptions = {
  transport: CartTransport;
  store: HandleStore;
  /** The signed-in customer's token for this location's merchant, read at each request; null when signed out. */
  customerToken?: () => string | null;
  newKey?: () => string;
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per request when the answer is transient (network error, 503, in progress). */
  maxAttempts?: number;
  retryDelayMs?: number;
};

const refOf = (handle: CartHandle): CartRef => ({ locationId: handle.locationId, cartId: handle.cartId });
const noCart = () => new StorefrontError({ code: "NO_CART", message: "Start an order first.", status: null });
// Shaped like the server's 401 so that callers forget the cart exactly as if the server had refused it.
const signedOut = () => new StorefrontError({ code: "UNAUTHORIZED", message: "You signed out: this cart belongs to your account. Sign in again to continue with it.", status: 401 });

export type CarryOverIntents = {
  /** Closes the guest cart (compare-and-set on its revision, so of two tabs only one moves it). */
  expire: CartIntent;
  /** Re-creates the guest cart's lines in the customer's cart, one intent per line. */
  lines: (guest: Cart) => CartIntent[];
};
/** `moved`: the lines now live in a customer cart (`cart`); else `cart` is whatever the session holds now. */
export type CarryOverResult = { moved: boolean; cart: Cart | null };

export class CartSession {
  private readonly handles = new Map<string, CartHandle>();
  private tail: Promise<unknown> = Promise.resolve();
  private readonly newKey: () => string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;

  constructor(private readonly options: CartSessionOptions) {
    this.newKey = options.newKey ?? newIdempotencyKey;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxAttempts = options.maxAttempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 400;
  }

  /** The cart this session holds for a location, if any. */
  handle(locationId: string): CartHandle | null {
    const known = this.handles.get(locationId);
    if (known) return known;
    const stored = this.options.store.read(locationId);
    if (stored) this.handles.set(locationId, stored);
    return stored;
  }

  /**
   * Takes in what another tab stored. Returns true when it differs from what this session holds (a
   * different cart, none, or a newer revision), i.e. when the caller should reload the cart.
   */
  adoptStored(locationId: string): boolean {
    const stored = this.options.store.read(locationId);
    const known = this.handles.get(locationId);
    if (!stored) {
      this.handles.delete(locationId);
      return known !== undefined;
    }
    if (!known || known.cartId !== stored.cartId || stored.revision > known.revision) {
      this.handles.set(locationId, stored);
      return true;
    }
    return false;
  }

  /**
   * Reads the held cart. A cart that is gone, no longer ours, expired or completed is forgotten
   * (null): the next write starts a new one.
   */
  load(locationId: string): Promise<Cart | null> {
    return this.enqueue(async () => {
      const handle = this.handle(locationId);
      if (!handle) return null;
      try {
        const cart = await this.read(handle);
        if (cart.status === "EXPIRED" || cart.status === "COMPLETED") {
          this.forgetNow(locationId, handle.cartId);
          return null;
        }
        return cart;
      } catch (error) {
        if (isStorefrontError(error) && (error.status === 401 || error.status === 403 || error.status === 404)) {
          this.forgetNow(locationId, handle.cartId);
          return null;
        }
        throw error;
      }
    });
  }

  /** Starts a new ordering session (a new cart) for the location, replacing any held cart. */
  start(locationId: string, fulfilmentMethod: FulfilmentMethod): Promise<Cart> {
    return this.enqueue(() => this.startNow(locationId, fulfilmentMethod));
  }

  /**
   * Applies an intent to the location's cart, starting a session first when there is none and
   * `startWith` names the fulfilment method to start it with.
   */
  mutate(locationId: string, intent: CartIntent, startWith?: FulfilmentMethod): Promise<MutationResult> {
    return this.enqueue(async () => {
      if (!this.handle(locationId)) {
        if (!startWith) throw noCart();
        await this.startNow(locationId, startWith);
      }
      const { value, recoveredFromConflict } = await this.withConflictRecovery(locationId, async (handle) => {
        const headers = this.writeHeaders(handle);
        const cart = await this.withRetries(() => intent(refOf(handle), headers));
        this.remember(handle, cart);
        return cart;
      });
      return { cart: value, recoveredFromConflict };
    });
  }

  /**
   * A revision-checked write that answers something other than the Cart (a payment session): the
   * same keys, retries and conflict recovery as `mutate`, then the cart is re-read because the
   * write moved its revision without saying to what.
   */
  write<T>(locationId: string, call: CartCall<T>): Promise<CallResult<T>> {
    return this.enqueue(async () => {
      const { value, recoveredFromConflict } = await this.withConflictRecovery(locationId, (handle) => {
        const headers = this.writeHeaders(handle);
        return this.withRetries(() => call(refOf(handle), headers));
      });
      return { value, cart: await this.rereadAfterWrite(locationId), recoveredFromConflict };
    });
  }

  /**
   * A cart-scoped write without If-Match (reporting a payment: its precondition is the quote, not
   * the revision). One key for all its retries, no conflict recovery; the cart is re-read after it.
   */
  report<T>(locationId: string, call: CheckoutCall<T>): Promise<CallResult<T>> {
    return this.enqueue(async () => {
      const handle = this.handle(locationId);
      if (!handle) throw noCart();
      const headers: CheckoutHeaders = { "Idempotency-Key": this.newKey(), ...this.credential(handle) };
      const value = await this.withRetries(() => call(refOf(handle), headers));
      return { value, cart: await this.rereadAfterWrite(locationId), recoveredFromConflict: false };
    });
  }

  /** Drops the held cart (e.g. after the user chose to start over). */
  forget(locationId: string): void {
    const handle = this.handles.get(locationId) ?? this.options.store.read(locationId);
    if (handle) this.forgetNow(locationId, handle.cartId);
  }

  /** On sign-out: the customer's cart stays on the server (with the account), the device lets go of it. */
  forgetCustomerCart(locationId: string): void {
    const handle = this.handles.get(locationId) ?? this.options.store.read(locationId);
    if (handle && handle.cartAccessToken === null) this.forgetNow(locationId, handle.cartId);
  }

  /**
   * While signed in, a guest cart held from before the sign-in becomes the customer's, so that
   * paying it puts the order (and its points) in the account: the guest cart is expired first and
   * its lines re-added to a new customer cart with the same fulfilment method. Delivery address,
   * time, tip and discount are not carried (the customer sets them again before paying). A guest
   * cart that is not OPEN (a payment in progress) is left to finish as a guest order; an empty one
   * is just dropped. If another tab moved it first, the expiry fails and this tab adopts the result.
   */
  carryOver(locationId: string, intents: CarryOverIntents): Promise<CarryOverResult> {
    return this.enqueue(async () => {
      const handle = this.handle(locationId);
      if (!handle || handle.cartAccessToken === null || !this.options.customerToken?.()) return { moved: false, cart: null };
      let guest: Cart;
      try {
        guest = await this.read(handle);
      } catch (error) {
        if (isStorefrontError(error) && (error.status === 401 || error.status === 403 || error.status === 404)) {
          this.forgetNow(locationId, handle.cartId);
          return { moved: false, cart: null };
        }
        throw error;
      }
      if (guest.status === "LOCKED") return { moved: false, cart: guest };
      const current = this.requireHandle(locationId);
      if (guest.status !== "OPEN" || guest.items.length === 0) {
        // Best effort: an abandoned empty cart would expire on its own anyway.
        if (guest.status === "OPEN") await this.withRetries(() => intents.expire(refOf(current), this.writeHeaders(current))).catch(() => undefined);
        this.forgetNow(locationId, handle.cartId);
        return { moved: false, cart: null };
      }
      const expireHeaders = this.writeHeaders(current);
      try {
        await this.withRetries(() => intents.expire(refOf(current), expireHeaders));
      } catch (error) {
        // Changed or closed meanwhile (another tab added to it, or moved it): leave it as it is now.
        if (isStorefrontError(error) && (error.isConflict || error.code === "CART_IMMUTABLE")) {
          this.adoptStored(locationId);
          return { moved: false, cart: null };
        }
        throw error;
      }
      let cart = await this.startNow(locationId, guest.fulfilmentMethod);
      for (const line of intents.lines(guest)) {
        const { value } = await this.withConflictRecovery(locationId, async (target) => {
          const headers = this.writeHeaders(target);
          const next = await this.withRetries(() => line(refOf(target), headers));
          this.remember(target, next);
          return next;
        });
        cart = value;
      }
      return { moved: true, cart };
    });
  }

  private async startNow(locationId: string, fulfilmentMethod: FulfilmentMethod): Promise<Cart> {
    const key = this.newKey();
    const input = { locationId, fulfillmentMethod: fulfilmentMethod };
    const customerToken = this.options.customerToken?.();
    if (customerToken) {
      const { cart } = await this.withRetries(() => this.options.transport.startCustomerCart(input, { "Idempotency-Key": key, Authorization: bearer(customerToken) }));
      return this.hold({ locationId, cartId: cart.id, cartAccessToken: null, revision: cart.revision, fulfilmentMethod: cart.fulfilmentMethod }, cart);
    }
    const { cart, cartAccessToken } = await this.withRetries(() => this.options.transport.startSession(input, { "Idempotency-Key": key }));
    if (!cartAccessToken) {
      throw new StorefrontError({ code: "INTERNAL_ERROR", message: "The new cart came without its access token. Please try again.", status: null });
    }
    return this.hold({ locationId, cartId: cart.id, cartAccessToken, revision: cart.revision, fulfilmentMethod: cart.fulfilmentMethod }, cart);
  }

  private hold(handle: CartHandle, cart: Cart): Cart {
    this.handles.set(handle.locationId, handle);
    this.options.store.write(handle);
    return cart;
  }

  /** The cart's credential now: its capability, or the customer's current token (none after a sign-out: 401). */
  private credential(handle: CartHandle): CredentialHeaders {
    if (handle.cartAccessToken !== null) return { "X-Cart-Token": handle.cartAccessToken };
    const token = this.options.customerToken?.();
    if (!token) throw signedOut();
    return { Authorization: bearer(token) };
  }

  /** Headers for one logical write: take them once, before the first attempt, so every retry is identical. */
  private writeHeaders(handle: CartHandle): WriteHeaders {
    return { "Idempotency-Key": this.newKey(), ...this.credential(handle), "If-Match": ifMatch(handle.revision) };
  }

  /** Runs a revision-checked write; on CART_CONFLICT reloads the cart and runs it once more, with a new key. */
  private async withConflictRecovery<T>(locationId: string, run: (handle: CartHandle) => Promise<T>): Promise<{ value: T; recoveredFromConflict: boolean }> {
    const handle = this.requireHandle(locationId);
    try {
      return { value: await run(handle), recoveredFromConflict: false };
    } catch (error) {
      if (!isStorefrontError(error) || !error.isConflict) throw error;
    }
    await this.read(handle);
    return { value: await run(this.requireHandle(locationId)), recoveredFromConflict: true };
  }

  /** The cart after a write that did not answer it; a failed read leaves the handle as it was (see CallResult). */
  private async rereadAfterWrite(locationId: string): Promise<Cart | undefined> {
    const handle = this.handles.get(locationId);
    if (!handle) return undefined;
    try {
      const cart = await this.read(handle);
      if (cart.status === "EXPIRED" || cart.status === "COMPLETED") this.forgetNow(locationId, handle.cartId);
      return cart;
    } catch {
      return undefined;
    }
  }

  private async read(handle: CartHandle): Promise<Cart> {
    const credential = this.credential(handle);
    const cart = await this.withRetries(() => this.options.transport.readCart({ locationId: handle.locationId, cartId: handle.cartId }, credential));
    this.remember(handle, cart);
    return cart;
  }

  /**
   * Records a cart this session saw. Revisions only move forward, here and in the store; a cart
   * another tab stored since (the user started over there) is left for that tab's choice to win.
   */
  private remember(handle: CartHandle, cart: Cart): void {
    const current = this.handles.get(handle.locationId);
    if (current && current.cartId !== cart.id) return;
    const revision = Math.max(cart.revision, current?.revision ?? 0);
    const next: CartHandle = { ...handle, revision, fulfilmentMethod: cart.fulfilmentMethod };
    this.handles.set(handle.locationId, next);
    const stored = this.options.store.read(handle.locationId);
    if (stored && (stored.cartId !== next.cartId || stored.revision >= next.revision)) return;
    this.options.store.write(next);
  }

  private forgetNow(locationId: string, cartId: string): void {
    if (this.handles.get(locationId)?.cartId === cartId) this.handles.delete(locationId);
    if (this.options.store.read(locationId)?.cartId === cartId) this.options.store.remove(locationId);
  }

  private requireHandle(locationId: string): CartHandle {
    const handle = this.handle(locationId);
    if (!handle) throw noCart();
    return handle;
  }

  /** The same request again while the answer is transient; the caller fixed its headers beforehand. */
  private async withRetries<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!isStorefrontError(error) || !error.isTransient || attempt >= this.maxAttempts) throw error;
        await this.sleep(this.retryDelayMs * attempt);
      }
    }
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation, operation);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
