import { methodLabels } from "../lib/format";
import type { Cart } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";

/**
 * SLOT (issue 3, delivery quotes): shown in the cart drawer when the cart's method is delivery.
 *
 * The procedures are in server/routers/cart-quotes.ts (`cartQuoteProcedures.setDelivery` and
 * `setCourierTip`; not yet in AppRouter when this part was written). To fill it: an address form
 * (street, city, state, zipCode, country = the location's country, lat, lng, streetOptional) and a
 * courier-tip control (amount, decimal string), each added to lib/api.ts `cartIntents` and run
 * through `cartState.run`, so they get the session's X-Cart-Token, If-Match, Idempotency-Key,
 * network retry and conflict handling. Show `details.reason` of a refused address. The answer is
 * the Cart with deliveryInfo / deliveryQuote; CartTotals already shows the fee (in
 * fulfillmentMethodFeeTotal) and courierTipTotal.
 */
export function DeliverySlot(props: { cart: Cart; cartState: CartState }) {
  const { cart } = props;
  return (
    <section aria-labelledby="delivery-heading" className={styles.cartSection} data-slot="delivery">
      <h3 id="delivery-heading">{methodLabels.delivery} address</h3>
      {cart.deliveryInfo ? (
        <p>{cart.deliveryInfo.addressString}</p>
      ) : (
        <p className={styles.muted}>Entering a delivery address is not available in this demo yet.</p>
      )}
    </section>
  );
}
