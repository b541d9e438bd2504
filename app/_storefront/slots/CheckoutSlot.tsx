import type { Cart } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";

/**
 * SLOT (issue 4, checkout): the end of the cart drawer, below the totals.
 *
 * The procedures exist in AppRouter (server/routers/checkout.ts, receipts.ts): `checkout.paymentSession`
 * (a cart mutation: X-Cart-Token, If-Match, Idempotency-Key), `checkout.payments` (quoteFingerprint =
 * the session's quote.revision; with the embedded processor, paymentMethodId such as pm_card_visa,
 * pm_card_chargeDeclined, pm_card_authenticationRequired), `checkout.orderResult` (poll after
 * pollAfterMs until completed or failed), `checkout.rating` and `receipts.get` (X-Receipt-Token from
 * the completed result). To fill it:
 * - paymentSession moves the cart's revision but answers a PaymentSession, not a Cart: after it,
 *   re-read the cart (CartSession.load) or capture the `etag` response header in a link, before
 *   the next cart write. Add a CartSession method for writes that answer something other than a
 *   Cart, with the same key/retry/conflict rules.
 * - A completed order leaves the cart COMPLETED: CartSession.load then forgets it, so the next item
 *   starts a new cart. A failed payment leaves it OPEN for another card.
 * - Put the result/receipt/rating screen on its own route, e.g. app/l/[locationSlug]/order/[cartId]/page.tsx,
 *   so a reload while polling resumes it.
 */
export function CheckoutSlot(props: { cart: Cart; cartState: CartState }) {
  const { cart } = props;
  if (cart.items.length === 0) return null;
  return (
    <section aria-labelledby="checkout-heading" className={styles.cartSection} data-slot="checkout">
      <h3 id="checkout-heading" className={styles.visuallyHidden}>
        Checkout
      </h3>
      <p className={styles.muted}>Checkout is not available in this demo yet. Your cart is saved on this device.</p>
    </section>
  );
}
