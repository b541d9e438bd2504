import { useCallback, useEffect, useRef, useState } from "react";
import { cartIntents, cartTransport, lineAsNewItem, type NewItem } from "./api";
import { CartSession, handleStorageKey, memoryHandleStore, storageHandleStore, type CartCall, type CartHandle, type CartIntent, type CheckoutCall } from "./cart-session";
import { customerSessions, useCustomerSession } from "./customer-session";
import { asStorefrontError, StorefrontError } from "./errors";
import type { Cart, FulfilmentMethod, GratuityChoice, OrderTimeChoice } from "./types";

export type ActionResult = { ok: true; cart: Cart } | { ok: false; error: StorefrontError };
/** The answer of a write that is not the cart (a payment session, an order result). */
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: StorefrontError };

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
  /** Re-reads the cart without a loading state (e.g. when the cart is opened: the menu may have changed meanwhile). */
  sync: () => void;
  /** Any cart-returning write, with the session's credentials, retries and conflict handling (for the slots). */
  run: (intent: CartIntent) => Promise<ActionResult>;
  /** A revision-checked write answering something else (payment session); the cart is re-read after it. */
  write: <T>(call: CartCall<T>) => Promise<CallOutcome<T>>;
  /** A cart-scoped write without If-Match (payment report); the cart is re-read after it. */
  report: <T>(call: CheckoutCall<T>) => Promise<CallOutcome<T>>;
  /** The held cart's id and capability (the order status page keeps a copy to follow a payment). */
  handle: () => CartHandle | null;
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
const CARRIED_OVER = "You are signed in: your cart now belongs to your account, so this order and its points will show there. Set the delivery address, time, tip or discount again if you had chosen them.";
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

/**
 * The location's cart, held by one CartSession per page and kept in step with other tabs. While a
 * customer of `merchantSlug` is signed in, new carts are theirs (bearer token), and a guest cart
 * held from before the sign-in is carried over (CartSession.carryOver); on sign-out the device
 * lets go of the customer's cart and the next item starts a guest cart.
 */
export function useCart(locationId: string | undefined, defaultMethod: FulfilmentMethod | undefined, merchantSlug?: string): CartState {
  const [session] = useState(
    () =>
      new CartSession({
        transport: cartTransport,
        store: typeof window === "undefined" ? memoryHandleStore() : browserStore(),
        customerToken: () => (merchantSlug ? (customerSessions.read(merchantSlug)?.token ?? null) : null),
      }),
  );
  const customerToken = useCustomerSession(merchantSlug)?.token ?? null;
  const seenToken = useRef<string | null | undefined>(undefined);
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

  // Sign-in (here, in another tab, or already on arrival) and sign-out change whose cart this is.
  useEffect(() => {
    if (!locationId) return;
    const before = seenToken.current;
    seenToken.current = customerToken;
    if (before === customerToken || (before === undefined && !customerToken)) return;
    if (!customerToken) {
      session.forgetCustomerCart(locationId);
      void refresh(false);
      return;
    }
    setPending((count) => count + 1);
    session
      .carryOver(locationId, { expire: cartIntents.expire(), lines: (guest) => guest.items.map((item) => cartIntents.addItem(lineAsNewItem(item))) })
      .then(
        (result) => {
          if (!result.moved) return refresh(false);
          setCart(result.cart);
          setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, text: CARRIED_OVER }));
        },
        (error: unknown) => setLoadError(asStorefrontError(error)),
      )
      .finally(() => setPending((count) => count - 1));
  }, [customerToken, locationId, refresh, session]);

  /** Every write goes through here: one place for busy state, the cart it leaves, and what a failure means. */
  const execute = useCallback(
    async <T,>(operation: (locationId: string) => Promise<{ value: T; cart: Cart | undefined; recoveredFromConflict: boolean }>): Promise<CallOutcome<T>> => {
      if (!locationId) return { ok: false, error: asStorefrontError(new Error("location not loaded")) };
      setPending((count) => count + 1);
      try {
        const result = await operation(locationId);
        if (result.cart) setCart(result.cart);
        setLoadError(undefined);
        if (result.recoveredFromConflict) setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, text: CONFLICT_NOTICE }));
        return { ok: true, value: result.value };
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
    [locationId, refresh],
  );

  const run = useCallback(
    async (intent: CartIntent): Promise<ActionResult> => {
      const outcome = await execute(async (id) => {
        const result = await session.mutate(id, intent, method);
        return { value: result.cart, cart: result.cart, recoveredFromConflict: result.recoveredFromConflict };
      });
      return outcome.ok ? { ok: true, cart: outcome.value } : outcome;
    },
    [execute, method, session],
  );

  const write = useCallback(<T,>(call: CartCall<T>) => execute((id) => session.write(id, call)), [execute, session]);
  const report = useCallback(<T,>(call: CheckoutCall<T>) => execute((id) => session.report(id, call)), [execute, session]);

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
    sync: useCallback(() => void refresh(false), [refresh]),
    run,
    write,
    report,
    handle: useCallback(() => (locationId ? session.handle(locationId) : null), [locationId, session]),
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
