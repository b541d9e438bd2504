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
 */
export type CartHandle = {
  locationId: string;
  cartId: string;
  cartAccessToken: string;
  revision: number;
  fulfilmentMethod: FulfilmentMethod;
};

export type CartRef = { locationId: string; cartId: string };
export type WriteHeaders = { "Idempotency-Key": string; "X-Cart-Token": string; "If-Match": string };

/** One change to the cart, re-runnable against whatever revision is current. */
export type CartIntent = (ref: CartRef, headers: WriteHeaders) => Promise<Cart>;

export interface CartTransport {
  startSession(input: { locationId: string; fulfillmentMethod: FulfilmentMethod }, headers: { "Idempotency-Key": string }): Promise<{ cart: Cart; cartAccessToken?: string | undefined }>;
  readCart(ref: CartRef, headers: { "X-Cart-Token": string }): Promise<Cart>;
}

export interface HandleStore {
  read(locationId: string): CartHandle | null;
  write(handle: CartHandle): void;
  remove(locationId: string): void;
}

export type MutationResult = { cart: Cart; recoveredFromConflict: boolean };

export const handleStorageKey = (locationId: string) => `storefront.cart.${locationId}`;

export function ifMatch(revision: number): string {
  return `"cart-${revision}"`;
}

/** A fresh key per logical write: 16-128 of A-Z a-z 0-9 . _ : - (a UUID qualifies). */
export function newIdempotencyKey(): string {
  return `sf-${crypto.randomUUID()}`;
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
      typeof cartAccessToken === "string" &&
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
  newKey?: () => string;
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per request when the answer is transient (network error, 503, in progress). */
  maxAttempts?: number;
  retryDelayMs?: number;
};

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
      let handle = this.handle(locationId);
      if (!handle) {
        if (!startWith) throw new StorefrontError({ code: "NO_CART", message: "Start an order first.", status: null });
        await this.startNow(locationId, startWith);
        handle = this.requireHandle(locationId);
      }
      try {
        return { cart: await this.send(handle, intent), recoveredFromConflict: false };
      } catch (error) {
        if (!isStorefrontError(error) || !error.isConflict) throw error;
      }
      await this.read(handle);
      return { cart: await this.send(this.requireHandle(locationId), intent), recoveredFromConflict: true };
    });
  }

  /** Drops the held cart (e.g. after the user chose to start over). */
  forget(locationId: string): void {
    const handle = this.handles.get(locationId) ?? this.options.store.read(locationId);
    if (handle) this.forgetNow(locationId, handle.cartId);
  }

  private async startNow(locationId: string, fulfilmentMethod: FulfilmentMethod): Promise<Cart> {
    const key = this.newKey();
    const { cart, cartAccessToken } = await this.withRetries(() => this.options.transport.startSession({ locationId, fulfillmentMethod: fulfilmentMethod }, { "Idempotency-Key": key }));
    if (!cartAccessToken) {
      throw new StorefrontError({ code: "INTERNAL_ERROR", message: "The new cart came without its access token. Please try again.", status: null });
    }
    const handle: CartHandle = { locationId, cartId: cart.id, cartAccessToken, revision: cart.revision, fulfilmentMethod: cart.fulfilmentMethod };
    this.handles.set(locationId, handle);
    this.options.store.write(handle);
    return cart;
  }

  private async send(handle: CartHandle, intent: CartIntent): Promise<Cart> {
    const headers: WriteHeaders = { "Idempotency-Key": this.newKey(), "X-Cart-Token": handle.cartAccessToken, "If-Match": ifMatch(handle.revision) };
    const ref = { locationId: handle.locationId, cartId: handle.cartId };
    const cart = await this.withRetries(() => intent(ref, headers));
    this.remember(handle, cart);
    return cart;
  }

  private async read(handle: CartHandle): Promise<Cart> {
    const cart = await this.withRetries(() =>
      this.options.transport.readCart({ locationId: handle.locationId, cartId: handle.cartId }, { "X-Cart-Token": handle.cartAccessToken }),
    );
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
    const handle = this.handles.get(locationId);
    if (!handle) throw new StorefrontError({ code: "NO_CART", message: "Start an order first.", status: null });
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
