"use client";

import { methodLabels } from "../lib/format";
import type { GratuityPolicy, Location } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import type { Query } from "../lib/use-query";
import { CheckoutSlot } from "../slots/CheckoutSlot";
import { DeliverySlot } from "../slots/DeliverySlot";
import { RevalidationSlot } from "../slots/RevalidationSlot";
import styles from "../storefront.module.css";
import { CartLines } from "./CartLines";
import { CartTotals } from "./CartTotals";
import { DiscountSection } from "./DiscountSection";
import { ErrorNotice } from "./ErrorNotice";
import { GratuitySection } from "./GratuitySection";
import { Modal } from "./Modal";
import { OrderTimeSection } from "./OrderTimeSection";

const TITLE_ID = "cart-title";

/** The cart as a side drawer (full screen on a phone): lines, time, tip, discount, totals, checkout. */
export function CartDrawer(props: { open: boolean; onClose: () => void; location: Location; cartState: CartState; gratuity: Query<GratuityPolicy> }) {
  const { open, onClose, location, cartState, gratuity } = props;
  const { cart } = cartState;
  return (
    <Modal open={open} onClose={onClose} labelledBy={TITLE_ID} variant="drawer">
      <header className={styles.drawerHeader}>
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
      </header>
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
        {cart && cart.status !== "OPEN" ? (
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
            <RevalidationSlot cart={cart} cartState={cartState} />
            <OrderTimeSection key={cart.id} cart={cart} onSubmit={cartState.setOrderTime} />
            {cart.fulfilmentMethod === "delivery" ? <DeliverySlot cart={cart} cartState={cartState} /> : null}
            {cart.items.length > 0 ? (
              <>
                <GratuitySection cart={cart} policy={gratuity} onSet={cartState.setGratuity} />
                <DiscountSection cart={cart} onApply={cartState.applyDiscount} onRemove={cartState.removeDiscount} />
                <CartTotals cart={cart} />
              </>
            ) : null}
            <CheckoutSlot cart={cart} cartState={cartState} />
          </>
        ) : null}
      </div>
    </Modal>
  );
}
