import type { Cart } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";

const reasonText: Record<string, string> = {
  ITEM_SOLD_OUT: "An item sold out",
  ITEM_UNAVAILABLE: "An item is no longer available",
  PRICE_CHANGED: "A price changed",
  MODIFIER_UNAVAILABLE: "A choice is no longer available",
  MODIFIER_RULE_CHANGED: "The choices for an item changed",
  QUANTITY_REDUCED: "A quantity was reduced",
  SCHEDULE_CLOSED: "The restaurant is closed at your chosen time",
  FULFILLMENT_UNAVAILABLE: "Your order type is no longer offered",
  MAPPING_MISSING: "An item can no longer be ordered here",
  POLICY_CHANGED: "Fees or policies changed",
  QUOTE_EXPIRED: "Your quote expired",
};

/**
 * SLOT (issue 3, revalidation): what changed in the catalog since the cart was priced, from
 * cart.catalogRevalidation. This part only shows it.
 *
 * The procedure is `cartQuoteProcedures.validateAndUpdate` in server/routers/cart-quotes.ts (not yet
 * in AppRouter when this part was written). To fill it: run it as a CartIntent through
 * `cartState.run` with `{}` before checkout (check), and with `{ accept: true, quoteFingerprint:
 * cart.quoteFingerprint }` when the customer accepts; offer each change's `permittedActions`
 * (REMOVE_ITEM maps to `cartState.setQuantity(cartItemId, 0)`, EDIT_ITEM to the product dialog,
 * CHANGE_FULFILLMENT to the When section or the delivery address, START_NEW_CART to
 * `cartState.startOver`). A 409 REQUOTE_REQUIRED means: show the new cart and ask again.
 */
export function RevalidationSlot(props: { cart: Cart; cartState: CartState }) {
  const revalidation = props.cart.catalogRevalidation;
  if (!revalidation?.required) return null;
  return (
    <section role="alert" aria-labelledby="revalidation-heading" className={styles.confirm} data-slot="revalidation">
      <h3 id="revalidation-heading">Your cart needs a look</h3>
      <ul>
        {revalidation.changeSet.changes.map((change, index) => (
          <li key={`${change.path}:${index}`}>
            {reasonText[change.reason] ?? change.reason}
            {change.before !== null && change.after !== null ? ` (${String(change.before)} → ${String(change.after)})` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}
