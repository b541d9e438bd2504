import { formatClock, formatDate, formatTime, isZeroDecimal, localDate, methodLabels } from "../lib/format";
import type { Receipt } from "../lib/types";
import styles from "../storefront.module.css";

type TotalName = "subTotalWithoutDiscount" | "discountTotal" | "taxTotal" | "serviceFeeTotal" | "fulfillmentMethodFeeTotal" | "waiterTipTotal" | "courierTipTotal";

const totalRows: { name: TotalName; label: string; always?: boolean; negative?: boolean }[] = [
  { name: "subTotalWithoutDiscount", label: "Items", always: true },
  { name: "discountTotal", label: "Discount", negative: true },
  { name: "taxTotal", label: "Tax", always: true },
  { name: "serviceFeeTotal", label: "Service fee" },
  { name: "fulfillmentMethodFeeTotal", label: "Delivery / service charge" },
  { name: "waiterTipTotal", label: "Tip" },
  { name: "courierTipTotal", label: "Courier tip" },
];

/** "Ready for pickup around 12:20 PM" in the restaurant's time zone; the date too when it is not the day of placing. */
function readyLine(receipt: Receipt): string | null {
  if (!receipt.readyAt) return null;
  const zone = receipt.location.timeZone;
  const day = (instant: string) => localDate(instant, zone);
  const date = day(receipt.readyAt) === day(receipt.placedAt) ? "" : ` on ${formatDate(day(receipt.readyAt))}`;
  const clock = `${formatClock(receipt.readyAt, zone)}${date}`;
  switch (receipt.fulfilment.method) {
    case "delivery":
      return `Arrives around ${clock}`;
    case "takeout":
      return `Ready for pickup around ${clock}`;
    default:
      return `Served around ${clock}`;
  }
}

/** The receipt as the server wrote it: lines, totals and the payment, all amounts pre-formatted. */
export function ReceiptView(props: { receipt: Receipt }) {
  const { receipt } = props;
  const placed = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: receipt.location.timeZone }).format(new Date(receipt.placedAt));
  const when = receipt.fulfilment.pickupType === "ASAP" || !receipt.fulfilment.orderDate ? "As soon as possible" : `${formatDate(receipt.fulfilment.orderDate)} at ${formatTime(receipt.fulfilment.orderTime)}`;
  const ready = readyLine(receipt);
  const card = receipt.payment.brand ? `${receipt.payment.brand.toUpperCase()}${receipt.payment.last4 ? ` ending ${receipt.payment.last4}` : ""}` : "Card";
  return (
    <article className={styles.receipt} data-testid="receipt" aria-labelledby="receipt-heading">
      <header>
        <p className={styles.orderNumber}>
          Order number <strong data-testid="receipt-order-number">{receipt.orderNumber}</strong>
        </p>
        {ready ? (
          <p className={styles.readyAt} data-testid="receipt-ready-at">
            {ready}
          </p>
        ) : null}
        <h2 id="receipt-heading">Receipt</h2>
        <p>
          {receipt.merchant.displayName} · {receipt.location.displayName}
        </p>
        <p className={styles.muted}>
          Placed {placed} · reference <span data-testid="receipt-order-id">{receipt.orderId}</span>
        </p>
        <p data-testid="receipt-fulfilment">
          {methodLabels[receipt.fulfilment.method]}: {when}
          {receipt.fulfilment.deliveryAddress ? ` · to ${receipt.fulfilment.deliveryAddress}` : ""}
          {receipt.fulfilment.tableNumber ? ` · table ${receipt.fulfilment.tableNumber}` : ""}
          {receipt.fulfilment.roomNumber ? ` · room ${receipt.fulfilment.roomNumber}` : ""}
        </p>
      </header>
      <ul className={styles.lines} aria-label="Items">
        {receipt.lines.map((line, index) => (
          <li key={`${line.productId}:${index}`} className={styles.receiptLine} data-testid="receipt-line">
            <div>
              <p className={styles.lineName}>
                {line.quantity} × {line.name}
              </p>
              {line.selections.length > 0 ? (
                <ul className={styles.selections}>
                  {line.selections.map((selection, position) => (
                    <li key={position}>
                      {selection.groupName}: {selection.optionName}
                      {selection.quantity > 1 ? ` ×${selection.quantity}` : ""}
                    </li>
                  ))}
                </ul>
              ) : null}
              {line.specialInstructions ? <p className={styles.muted}>Note: {line.specialInstructions}</p> : null}
            </div>
            <p className={styles.lineTotal}>{line.totalFormatted}</p>
          </li>
        ))}
      </ul>
      <dl className={styles.totals}>
        {totalRows
          .filter((row) => row.always || !isZeroDecimal(receipt.totals[row.name]))
          .map((row) => (
            <div key={row.name} className={styles.totalRow}>
              <dt>{row.name === "discountTotal" && receipt.discountCode ? `Discount (${receipt.discountCode})` : row.label}</dt>
              <dd data-testid={`receipt-${row.name}`}>
                {row.negative ? "−" : ""}
                {receipt.totals[`${row.name}Formatted`]}
              </dd>
            </div>
          ))}
        <div className={`${styles.totalRow} ${styles.grandTotal}`}>
          <dt>Total</dt>
          <dd data-testid="receipt-total">{receipt.totals.orderTotalWithServiceFeeFormatted}</dd>
        </div>
      </dl>
      <p data-testid="receipt-payment">
        Paid {receipt.payment.amountFormatted} with {card}
      </p>
    </article>
  );
}
