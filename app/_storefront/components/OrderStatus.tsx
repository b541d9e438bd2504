"use client";

import Link from "next/link";
import { useEffect, useRef, type ReactNode } from "react";
import { failureHint } from "../lib/checkout-flow";
import { browserOrderStore } from "../lib/order-store";
import type { Cart } from "../lib/types";
import { useOrderItems } from "../lib/use-order-items";
import { useOrderResult } from "../lib/use-order-result";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";
import { ReceiptView } from "./ReceiptView";

const pendingText = {
  payment_pending: "Confirming your payment…",
  order_pending: "Payment received. The restaurant is confirming your order…",
};

/** What is being paid for, while the payment settles: the lines and the total, as priced. */
function PendingItems(props: { cart: Cart }) {
  const { cart } = props;
  return (
    <section className={styles.pendingItems} aria-labelledby="pending-items-heading" data-testid="pending-items">
      <h2 id="pending-items-heading">Your order</h2>
      <ul className={styles.lines}>
        {cart.items.map((item) => (
          <li key={item.id} className={styles.receiptLine} data-testid="pending-item">
            <span>
              {item.quantity} × {item.name}
            </span>
            <span>{item.totalFormatted}</span>
          </li>
        ))}
      </ul>
      <p className={`${styles.totalRow} ${styles.grandTotal}`}>
        <span>Total</span>
        <span>{cart.orderTotalWithServiceFeeFormatted}</span>
      </p>
    </section>
  );
}

/**
 * /l/{locationSlug}/order/{cartId}: follows the payment to its end and shows the receipt. Its own
 * route, so a reload while it polls (or a return from a card's bank page) resumes it.
 */
export function OrderStatus(props: { locationSlug: string; cartId: string }) {
  const { locationSlug, cartId } = props;
  const view = useOrderResult(cartId, browserOrderStore);
  const items = useOrderItems(cartId, browserOrderStore);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const menu = `/l/${locationSlug}`;

  // Each new stage is announced by moving focus to its heading.
  useEffect(() => {
    headingRef.current?.focus();
  }, [view.phase]);

  let heading: string;
  let body: ReactNode;
  switch (view.phase) {
    case "loading":
      heading = "Your order";
      body = <p role="status">Loading…</p>;
      break;
    case "unknown":
      heading = "We could not find this order";
      body = (
        <p>
          This device has no record of that order. <Link href={menu}>Back to the menu</Link>
        </p>
      );
      break;
    case "pending":
      heading = "Processing your order";
      body = (
        <>
          <p role="status" className={styles.loadingBlock} data-testid="order-pending">
            {view.result && view.result.status !== "completed" && view.result.status !== "failed" ? pendingText[view.result.status] : pendingText.payment_pending}
          </p>
          {items ? <PendingItems cart={items} /> : null}
        </>
      );
      break;
    case "failed":
      heading = "Payment not completed";
      body = (
        <div role="alert" className={styles.error} data-testid="payment-failure">
          <p>{view.failure.message}</p>
          <p>{failureHint(view.failure.code)}</p>
          <Link href={menu} className={styles.secondaryButton}>
            Back to your cart
          </Link>
        </div>
      );
      break;
    case "completed":
      heading = "Thank you! Your order is confirmed";
      body = (
        <>
          <ReceiptView receipt={view.receipt} />
          <p>
            <Link href={menu}>Order something else</Link>
          </p>
        </>
      );
      break;
    case "error":
      heading = "Your order";
      body = <ErrorNotice error={view.error} title="We could not check on your order." onRetry={view.retry} />;
      break;
  }

  return (
    <div className={styles.page}>
      <header className={styles.topbar}>
        <Link href={menu} className={styles.backLink}>
          ← Back to the menu
        </Link>
      </header>
      <main className={`${styles.main} ${styles.narrow}`}>
        <h1 ref={headingRef} tabIndex={-1} data-testid="order-heading">
          {heading}
        </h1>
        {body}
      </main>
    </div>
  );
}
