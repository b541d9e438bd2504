"use client";

import Link from "next/link";
import { methodLabels } from "../lib/format";
import type { GratuityPolicy, Location } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import { orderPath } from "../lib/use-payment";
import type { Query } from "../lib/use-query";
import { CheckoutSlot } from "../slots/CheckoutSlot";
import { DELIVERY_SECTION_ID, DeliverySlot } from "../slots/DeliverySlot";
import { ServiceSlot } from "../slots/ServiceSlot";
import { RevalidationSlot, type FulfilmentTarget } from "../slots/RevalidationSlot";
import styles from "../storefront.module.css";
import { CartLines } from "./CartLines";
import { CartTotals } from "./CartTotals";
import { DiscountSection } from "./DiscountSection";
import { ErrorNotice } from "./ErrorNotice";
import { GratuitySection } from "./GratuitySection";
import { Modal } from "./Modal";
import { ORDER_TIME_SECTION_ID, OrderTimeSection } from "./OrderTimeSection";

const TITLE_ID = "cart-title";

/** CHANGE_FULFILLMENT: take the customer to the order time or the delivery address, keyboard focus included. */
function goToFulfilment(target: FulfilmentTarget) {
  const section = document.getElementById(target === "address" ? DELIVERY_SECTION_ID : ORDER_TIME_SECTION_ID);
  if (!section) return;
  section.scrollIntoView({ block: "start", behavior: "smooth" });
  (section.querySelector<HTMLElement>("input:not([disabled]), select:not([disabled]), button:not([disabled])") ?? section).focus();
}

/** The cart as a side drawer (full screen on a phone): lines, time, tip, discount, totals, checkout. */
export function CartDrawer(props: {
  open: boolean;
  onClose: () => void;
  location: Location;
  cartState: CartState;
  gratuity: Query<GratuityPolicy>;
  /** Opens a product again to choose its options (a blocking revalidation change); undefined when it is not on the menu. */
  reselect?: (productId: string, itemId: string) => (() => void) | undefined;
}) {
  const { open, onClose, location, cartState, gratuity, reselect } = props;
  const { cart } = cartState;
  return (
    <Modal open={open} onClose={onClose} labelledBy={TITLE_ID} variant="drawer">
      <div className={styles.drawerHeader}>
        <div>
          <h2 id={TITLE_ID}>Your order</h2>
          <p className={styles.muted}>
            {cartState.method ? `${methodLabels[cartState.method]} · ` : ""}
            {location.displayName}
          </p>
        </div>
        <button type="button" className={styles.closeButton} onClick={onClose} aria-label="Close cart">
          ×
        </button>
      </div>
      <div className={styles.drawerScroll} aria-busy={cartState.busy}>
        <p role="status" className={styles.status}>
          {cartState.busy ? "Updating your cart…" : ""}
        </p>
        {cartState.notice ? (
          <p className={styles.notice} data-testid="cart-notice">
            {cartState.notice.text}{" "}
            <button type="button" className={styles.linkButton} onClick={cartState.dismissNotice}>
              Dismiss
            </button>
          </p>
        ) : null}
        {cartState.loading && !cart ? <p role="status">Loading your cart…</p> : null}
        {cartState.loadError ? <ErrorNotice error={cartState.loadError} title="We could not load your cart." onRetry={cartState.reload} /> : null}
        {cart?.status === "LOCKED" ? (
          <div className={styles.confirm} role="alert">
            <p>A payment for this cart is being processed, so it cannot change now.</p>
            <Link className={styles.primaryButton} href={orderPath(location.slug, cart.id)}>
              See the payment status
            </Link>
          </div>
        ) : cart && cart.status !== "OPEN" ? (
          <div className={styles.confirm} role="alert">
            <p>This cart is {cart.status.toLowerCase()} and can no longer be changed.</p>
            <button type="button" className={styles.primaryButton} onClick={cartState.startOver}>
              Start a new cart
            </button>
          </div>
        ) : null}
        {!cartState.loading && (!cart || cart.items.length === 0) ? <p className={styles.empty}>Your cart is empty. Add something from the menu.</p> : null}
        {cart ? (
          <>
            {cart.items.length > 0 ? <CartLines cart={cart} onQuantity={cartState.setQuantity} /> : null}
            <RevalidationSlot cart={cart} cartState={cartState} reselect={reselect} onChangeFulfilment={goToFulfilment} />
            <OrderTimeSection key={cart.id} cart={cart} onSubmit={cartState.setOrderTime} />
            {cart.fulfilmentMethod === "delivery" ? <DeliverySlot cart={cart} cartState={cartState} location={location} /> : null}
            {cart.fulfilmentMethod === "table_side" || cart.fulfilmentMethod === "room_service" ? <ServiceSlot key={cart.id} cart={cart} cartState={cartState} /> : null}
            {cart.items.length > 0 ? (
              <>
                <GratuitySection cart={cart} policy={gratuity} onSet={cartState.setGratuity} />
                <DiscountSection cart={cart} onApply={cartState.applyDiscount} onRemove={cartState.removeDiscount} />
                <CartTotals cart={cart} />
              </>
            ) : null}
            <CheckoutSlot cart={cart} cartState={cartState} location={location} />
          </>
        ) : null}
      </div>
    </Modal>
  );
}
