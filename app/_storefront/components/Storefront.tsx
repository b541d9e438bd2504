"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { catalogApi, type NewItem } from "../lib/api";
import type { Location, Menus, OrderTimeChoice, Product } from "../lib/types";
import { useTopModal } from "../lib/open-modals";
import { useCart } from "../lib/use-cart";
import { useQuery } from "../lib/use-query";
import { SignInSlot } from "../slots/SignInSlot";
import styles from "../storefront.module.css";
import { CartDrawer } from "./CartDrawer";
import { ErrorNotice } from "./ErrorNotice";
import { FulfilmentPicker } from "./FulfilmentPicker";
import { MenuTimeForm, type MenuMoment } from "./MenuTimeForm";
import { MenuView } from "./MenuView";
import { ProductDialog } from "./ProductDialog";

/** Long enough to read on a phone; every notice can also be dismissed. */
const TOAST_MS = 12_000;

/**
 * /l/{locationSlug}: resolves the location (slug or id), then renders its storefront. The page
 * renders the location and its current menus on the server (`initial`); the client takes over from
 * there and keeps the cart.
 */
export function Storefront(props: { locationSlug: string; initial?: { location: Location; menus: Menus } | undefined }) {
  const { locationSlug, initial } = props;
  const location = useQuery(`location:${locationSlug}`, () => catalogApi.location(locationSlug), initial?.location);

  if (!location.data) {
    return (
      <div className={styles.page}>
        <header className={styles.topbar}>
          <Link href="/" className={styles.backLink} aria-label="All restaurants">
            ← <span className={styles.backLinkText}>All restaurants</span>
          </Link>
        </header>
        <main className={styles.main}>
          {location.error?.code === "NOT_FOUND" ? (
            <>
              <h1>We could not find that restaurant</h1>
              <p>
                Check the address, or <Link href="/">choose a restaurant</Link>.
              </p>
            </>
          ) : location.error ? (
            <ErrorNotice error={location.error} title="We could not load this restaurant." onRetry={location.reload} />
          ) : (
            <p role="status" className={styles.loadingBlock}>
              Loading the restaurant…
            </p>
          )}
        </main>
      </div>
    );
  }
  return <LocationStorefront location={location.data} initialMenus={initial?.location.id === location.data.id ? initial.menus : undefined} />;
}

function momentKey(moment: MenuMoment | null): string {
  return moment ? `${moment.orderDate}T${moment.orderTime}` : "now";
}

function LocationStorefront(props: { location: Location; initialMenus: Menus | undefined }) {
  const { location, initialMenus } = props;
  const [moment, setMoment] = useState<MenuMoment | null>(null);
  const [nowMoment, setNowMoment] = useState<MenuMoment>();
  const menus = useQuery(`menus:${location.id}:${momentKey(moment)}`, () => catalogApi.menus(location.id, moment ?? undefined), initialMenus);
  const gratuity = useQuery(`gratuity:${location.id}`, () => catalogApi.gratuity(location.id));
  const cartState = useCart(location.id, location.fulfillmentMethods[0]?.method, location.merchant.slug);
  const [product, setProduct] = useState<Product | null>(null);
  const [cartOpen, setCartOpen] = useState(false);
  // A modal <dialog> makes the page behind it inert: notices move into the one on top, so that they
  // stay readable and their Dismiss button works while the cart, a product or sign-in is open.
  const topModal = useTopModal();
  // A reload (or a return from another tab's link) during checkout brings the customer back to the
  // open cart, where they were, rather than to the top of the menu.
  // Kept per cart, so the next cart (after an order) does not open by itself.
  const cartId = cartState.cart?.id;
  const openKey = cartId ? `storefront.cartOpen.${cartId}` : null;
  useEffect(() => {
    if (openKey && window.sessionStorage.getItem(openKey) === "1") setCartOpen(true);
  }, [openKey]);
  useEffect(() => {
    if (!openKey) return;
    if (cartOpen) window.sessionStorage.setItem(openKey, "1");
    else window.sessionStorage.removeItem(openKey);
  }, [cartOpen, openKey]);
  const [toasts, setToasts] = useState<{ id: number; text: string }[]>([]);
  const toastIds = useRef(0);
  const { cart, notice, addItem, setQuantity, setOrderTime: saveOrderTime } = cartState;
  /** The cart line a reopened product replaces (a blocking change asked to choose its options again). */
  const [replacing, setReplacing] = useState<string | null>(null);

  useEffect(() => {
    if (moment === null && menus.data) setNowMoment({ orderDate: menus.data.orderDate, orderTime: menus.data.orderTime });
  }, [moment, menus.data]);

  const pushToast = useCallback((text: string) => {
    toastIds.current += 1;
    const id = toastIds.current;
    setToasts((current) => [...current, { id, text }]);
  }, []);

  useEffect(() => {
    const oldest = toasts[0];
    if (!oldest) return;
    const timer = setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== oldest.id)), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toasts]);

  const toastItems = (
    <>
      {toasts.map((toast) => (
        <p key={toast.id} className={styles.toast}>
          {toast.text}
          <button type="button" className={styles.linkButton} onClick={() => setToasts((current) => current.filter((entry) => entry.id !== toast.id))}>
            Dismiss
          </button>
        </p>
      ))}
    </>
  );

  useEffect(() => {
    if (notice) pushToast(notice.text);
  }, [notice, pushToast]);

  const onAdded = useCallback((added: Product, quantity: number) => pushToast(`Added ${quantity} × ${added.name} to your cart.`), [pushToast]);

  // Scheduling the order also shows the menu served at that time.
  const setOrderTime = useCallback(
    async (choice: OrderTimeChoice) => {
      const result = await saveOrderTime(choice);
      if (result.ok) setMoment(choice.pickupType === "LATER" ? { orderDate: choice.orderDate, orderTime: choice.orderTime } : null);
      return result;
    },
    [saveOrderTime],
  );

  const reselect = useCallback(
    (productId: string, itemId: string) => {
      const onMenu = menus.data?.menus.flatMap((menu) => menu.categories.flatMap((category) => category.products)).find((candidate) => candidate.id === productId && candidate.available);
      if (!onMenu) return undefined;
      return () => {
        setReplacing(itemId);
        setProduct(onMenu);
      };
    },
    [menus.data],
  );

  // The new choice goes in first; only then does the old line go, so a refused choice loses nothing.
  const addOrReplace = useCallback(
    async (item: NewItem) => {
      const added = await addItem(item);
      if (!added.ok || !replacing) return added;
      const removed = await setQuantity(replacing, 0);
      setReplacing(null);
      return removed.ok ? removed : added;
    },
    [addItem, replacing, setQuantity],
  );

  const closeProduct = useCallback(() => {
    setProduct(null);
    setReplacing(null);
  }, []);

  // What the customer sees on opening the cart is the cart now, including menu changes since it was loaded.
  const { sync } = cartState;
  const openCart = useCallback(() => {
    setCartOpen(true);
    sync();
  }, [sync]);

  const itemCount = cart?.totalQuantity ?? 0;

  return (
    <div className={styles.page}>
      <a href="#menu" className={styles.skipLink}>
        Skip to menu
      </a>
      <header className={styles.topbar}>
        <Link href="/" className={styles.backLink} aria-label="All restaurants">
          ← <span className={styles.backLinkText}>All restaurants</span>
        </Link>
        <div className={styles.topbarActions}>
          <SignInSlot merchantSlug={location.merchant.slug} locationSlug={location.slug} />
          <button type="button" className={styles.cartButton} onClick={openCart} aria-haspopup="dialog" data-testid="open-cart">
            Cart
            <span className={styles.cartCount} data-testid="cart-count" aria-label={`${itemCount} ${itemCount === 1 ? "item" : "items"}`}>
              {itemCount}
            </span>
            {cart && cart.items.length > 0 ? <span className={styles.cartTotal}>{cart.orderTotalWithServiceFeeFormatted}</span> : null}
          </button>
        </div>
      </header>

      <main className={styles.main} id="main">
        <section className={styles.hero} aria-labelledby="location-title">
          <h1 id="location-title">{location.displayName}</h1>
          <p>{location.description}</p>
          <p className={styles.muted}>
            {location.address.street}, {location.address.city} · {location.phone} ·{" "}
            <span className={location.isOpenNow ? styles.open : styles.closed}>{location.isOpenNow ? "Open now" : "Closed now"}</span>
          </p>
        </section>

        <section className={styles.settings} aria-label="Order settings">
          <FulfilmentPicker location={location} method={cartState.method} cart={cart} onSwitch={cartState.switchMethod} />
          <MenuTimeForm key={momentKey(moment)} moment={moment} defaults={moment ?? nowMoment} onChange={setMoment} />
        </section>

        <MenuView menus={menus.data} loading={menus.loading} error={menus.error} onRetry={menus.reload} isNow={moment === null} timeZone={location.timeZone} onOpen={setProduct} />
      </main>

      <ProductDialog product={product} currency={location.currency} onClose={closeProduct} onAdd={addOrReplace} onAdded={onAdded} />
      <CartDrawer open={cartOpen} onClose={() => setCartOpen(false)} location={location} cartState={{ ...cartState, setOrderTime }} gratuity={gratuity} reselect={reselect} />

      {/* The page's region stays mounted, so a notice added as a dialog closes is announced from it. */}
      <div className={styles.toasts} role="status" aria-live="polite" data-testid={topModal ? "toasts-behind-dialog" : "toasts"}>
        {topModal ? null : toastItems}
      </div>
      {topModal
        ? createPortal(
            <div className={styles.toasts} role="status" aria-live="polite" data-testid="toasts">
              {toastItems}
            </div>,
            topModal,
          )
        : null}
    </div>
  );
}
