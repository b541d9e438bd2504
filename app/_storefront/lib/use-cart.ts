import { useCallback, useEffect, useState } from "react";
import { cartIntents, cartTransport, type NewItem } from "./api";
import { CartSession, handleStorageKey, memoryHandleStore, storageHandleStore, type CartIntent } from "./cart-session";
import { asStorefrontError, StorefrontError } from "./errors";
import type { Cart, FulfilmentMethod, GratuityChoice, OrderTimeChoice } from "./types";

export type ActionResult = { ok: true; cart: Cart } | { ok: false; error: StorefrontError };

export type CartState = {
  cart: Cart | null;
  /** The first read of a stored cart. */
  loading: boolean;
  loadError: StorefrontError | undefined;
  /** Writes in flight. */
  busy: boolean;
  /** The fulfilment method a new cart starts with (the cart's own once there is one). */
  method: FulfilmentMethod | undefined;
  /** Something the customer should know that is not an error (e.g. a change merged with another tab's). */
  notice: { id: number; text: string } | null;
  dismissNotice: () => void;
  reload: () => void;
  /** Any cart-returning write, with the session's credentials, retries and conflict handling (for the slots). */
  run: (intent: CartIntent) => Promise<ActionResult>;
  addItem: (item: NewItem) => Promise<ActionResult>;
  setQuantity: (itemId: string, quantity: number) => Promise<ActionResult>;
  setOrderTime: (choice: OrderTimeChoice) => Promise<ActionResult>;
  setGratuity: (choice: GratuityChoice) => Promise<ActionResult>;
  applyDiscount: (code: string) => Promise<ActionResult>;
  removeDiscount: () => Promise<ActionResult>;
  /** A new ordering session with another method; the current cart, if any, is abandoned (expired). */
  switchMethod: (method: FulfilmentMethod) => Promise<ActionResult | null>;
  /** Forgets a cart that can no longer change (locked, expired) so the next item starts a new one. */
  startOver: () => void;
};

const CONFLICT_NOTICE = "This cart was changed in another tab or device. We reloaded it and applied your change on top.";
const SECOND_CONFLICT = "Your cart was changed somewhere else at the same moment, twice. We reloaded it; please try again.";

function withMessage(error: StorefrontError, message: string): StorefrontError {
  return new StorefrontError({ code: error.code, message, status: error.status, details: error.details, requestId: error.requestId });
}

function browserStore() {
  try {
    return storageHandleStore(window.localStorage);
  } catch {
    return memoryHandleStore();
  }
}

/** The location's cart, held by one CartSession per page and kept in step with other tabs. */
export function useCart(locationId: string | undefined, defaultMethod: FulfilmentMethod | undefined): CartState {
  const [session] = useState(() => new CartSession({ transport: cartTransport, store: typeof window === "undefined" ? memoryHandleStore() : browserStore() }));
  const [cart, setCart] = useState<Cart | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<StorefrontError>();
  const [pending, setPending] = useState(0);
  const [chosenMethod, setChosenMethod] = useState<FulfilmentMethod>();
  const [notice, setNotice] = useState<{ id: number; text: string } | null>(null);

  const method = cart?.fulfilmentMethod ?? chosenMethod ?? defaultMethod;

  const refresh = useCallback(
    async (showLoading: boolean) => {
      if (!locationId) return;
      if (showLoading) setLoading(true);
      try {
        setCart(await session.load(locationId));
        setLoadError(undefined);
      } catch (error) {
        setLoadError(asStorefrontError(error));
      } finally {
        setLoading(false);
      }
    },
    [locationId, session],
  );

  useEffect(() => {
    void refresh(true);
  }, [refresh]);

  // Another tab wrote the cart (or started a new one): show what it did.
  useEffect(() => {
    if (!locationId) return;
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== handleStorageKey(locationId)) return;
      if (session.adoptStored(locationId)) void refresh(false);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [locationId, session, refresh]);

  const run = useCallback(
    async (intent: CartIntent): Promise<ActionResult> => {
      if (!locationId) return { ok: false, error: asStorefrontError(new Error("location not loaded")) };
      setPending((count) => count + 1);
      try {
        const result = await session.mutate(locationId, intent, method);
        setCart(result.cart);
        setLoadError(undefined);
        if (result.recoveredFromConflict) setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, text: CONFLICT_NOTICE }));
        return { ok: true, cart: result.cart };
      } catch (thrown) {
        const error = asStorefrontError(thrown);
        // The cart moved on, closed, or is not ours any more: show its real state next to the error.
        if (error.isConflict || error.code === "CART_IMMUTABLE" || error.status === 401 || error.status === 403 || error.status === 404) {
          await refresh(false);
        }
        // Already reloaded and retried once: the customer decides whether to try again.
        if (error.isConflict) return { ok: false, error: withMessage(error, SECOND_CONFLICT) };
        return { ok: false, error };
      } finally {
        setPending((count) => count - 1);
      }
    },
    [locationId, method, session, refresh],
  );

  const switchMethod = useCallback(
    async (next: FulfilmentMethod): Promise<ActionResult | null> => {
      if (!locationId) return null;
      if (!cart) {
        setChosenMethod(next);
        return null;
      }
      if (cart.fulfilmentMethod === next) return null;
      setPending((count) => count + 1);
      try {
        if (cart.status === "OPEN") {
          // Best effort: an abandoned cart would expire on its own anyway.
          await session.mutate(locationId, cartIntents.expire()).catch(() => undefined);
        }
        const fresh = await session.start(locationId, next);
        setChosenMethod(next);
        setCart(fresh);
        return { ok: true, cart: fresh };
      } catch (thrown) {
        return { ok: false, error: asStorefrontError(thrown) };
      } finally {
        setPending((count) => count - 1);
      }
    },
    [cart, locationId, session],
  );

  const startOver = useCallback(() => {
    if (!locationId) return;
    session.forget(locationId);
    setCart(null);
  }, [locationId, session]);

  return {
    cart,
    loading,
    loadError,
    busy: pending > 0,
    method,
    notice,
    dismissNotice: useCallback(() => setNotice(null), []),
    reload: useCallback(() => void refresh(true), [refresh]),
    run,
    addItem: useCallback((item: NewItem) => run(cartIntents.addItem(item)), [run]),
    setQuantity: useCallback((itemId: string, quantity: number) => run(cartIntents.setQuantity(itemId, quantity)), [run]),
    setOrderTime: useCallback((choice: OrderTimeChoice) => run(cartIntents.orderTime(choice)), [run]),
    setGratuity: useCallback((choice: GratuityChoice) => run(cartIntents.gratuity(choice)), [run]),
    applyDiscount: useCallback((code: string) => run(cartIntents.applyDiscount(code)), [run]),
    removeDiscount: useCallback(() => run(cartIntents.removeDiscount()), [run]),
    switchMethod,
    startOver,
  };
}
