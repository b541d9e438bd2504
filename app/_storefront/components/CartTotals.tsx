import { isZeroDecimal } from "../lib/format";
import type { Cart } from "../lib/types";
import styles from "../storefront.module.css";

/** The server's totals, as formatted by the server: the storefront never adds money up itself. */
export function CartTotals(props: { cart: Cart }) {
  const { cart } = props;
  const rows: { label: string; value: string; testId: string; show: boolean }[] = [
    { label: "Items", value: cart.subTotalWithoutDiscountFormatted, testId: "total-items", show: true },
    { label: cart.discountCode ? `Discount (${cart.discountCode})` : "Discount", value: `−${cart.discountTotalFormatted}`, testId: "total-discount", show: !isZeroDecimal(cart.discountTotal) },
    { label: "Tax", value: cart.taxTotalFormatted, testId: "total-tax", show: true },
    { label: "Service fee", value: cart.serviceFeeTotalFormatted, testId: "total-service-fee", show: !isZeroDecimal(cart.serviceFeeTotal) },
    { label: "Delivery / service charge", value: cart.fulfillmentMethodFeeTotalFormatted, testId: "total-fulfilment-fee", show: !isZeroDecimal(cart.fulfillmentMethodFeeTotal) },
    { label: "Tip", value: cart.waiterTipTotalFormatted, testId: "total-tip", show: !isZeroDecimal(cart.waiterTipTotal) },
    { label: "Courier tip", value: cart.courierTipTotalFormatted ?? "", testId: "total-courier-tip", show: cart.courierTipTotal !== undefined && !isZeroDecimal(cart.courierTipTotal) },
  ];
  return (
    <section aria-labelledby="totals-heading" className={styles.cartSection}>
      <h3 id="totals-heading" className={styles.visuallyHidden}>
        Totals
      </h3>
      <dl className={styles.totals}>
        {rows
          .filter((row) => row.show)
          .map((row) => (
            <div key={row.testId} className={styles.totalRow}>
              <dt>{row.label}</dt>
              <dd data-testid={row.testId}>{row.value}</dd>
            </div>
          ))}
        <div className={`${styles.totalRow} ${styles.grandTotal}`}>
          <dt>Total</dt>
          <dd data-testid="total-order">{cart.orderTotalWithServiceFeeFormatted}</dd>
        </div>
      </dl>
    </section>
  );
}
