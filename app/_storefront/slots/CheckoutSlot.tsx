"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice";
import { checkoutApi } from "../lib/api";
import { failureHint } from "../lib/checkout-flow";
import { testCards } from "../lib/test-cards";
import type { Cart, Location } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import { usePayment, type PaymentState } from "../lib/use-payment";
import { useQuery } from "../lib/use-query";
import styles from "../storefront.module.css";
import { REVALIDATION_SECTION_ID } from "./RevalidationSlot";

// Stripe.js (and js.stripe.com) load only when a publishable key is configured.
const StripePayment = dynamic(() => import("../components/StripePayment"), { ssr: false, loading: () => <p role="status">Loading the card form…</p> });

/**
 * The end of the cart drawer: pay for the cart's current quote. With a Stripe publishable key the
 * card is entered in Stripe's Payment Element; without one (the simulated processor) the customer
 * picks one of Stripe's test cards and the server confirms it. Either way the amount is the cart's
 * own total, and a completed or pending payment continues on the order status page.
 */
export function CheckoutSlot(props: { cart: Cart; cartState: CartState; location: Location }) {
  const { cart, cartState, location } = props;
  const config = useQuery(`payment-config:${location.id}`, () => checkoutApi.config(location.id));
  const payment = usePayment(cart, cartState, location);

  // The changes to review are above the payment form: take the customer there.
  useEffect(() => {
    if (payment.needsReview) document.getElementById(REVALIDATION_SECTION_ID)?.focus();
  }, [payment.needsReview]);

  if (cart.items.length === 0 || cart.status !== "OPEN") return null;

  const blocker =
    cart.fulfilmentMethod === "delivery" && !cart.deliveryInfo
      ? "Add a delivery address above to pay."
      : !serviceDetailsGiven(cart)
        ? cart.fulfilmentMethod === "table_side"
          ? "Enter your table number above to pay."
          : "Enter your room number and last name above to pay."
      : cart.catalogRevalidation?.required
        ? "Review the changes to your cart above before paying."
        : null;

  return (
    <section aria-labelledby="checkout-heading" className={styles.cartSection} data-slot="checkout">
      <h3 id="checkout-heading">Payment</h3>
      {config.loading && !config.data ? <p role="status">Loading payment options…</p> : null}
      {config.error ? <ErrorNotice error={config.error} title="Payment options are unavailable." onRetry={config.reload} /> : null}
      {blocker ? (
        <p className={styles.muted} data-testid="checkout-blocker">
          {blocker}
        </p>
      ) : null}
      {config.data?.publishableKey ? (
        <StripePayment publishableKey={config.data.publishableKey} cart={cart} payment={payment} disabled={blocker !== null || cartState.busy} />
      ) : config.data ? (
        <TestCardPayment cart={cart} payment={payment} disabled={blocker !== null || cartState.busy} />
      ) : null}
      <PaymentMessages payment={payment} />
    </section>
  );
}

function TestCardPayment(props: { cart: Cart; payment: PaymentState; disabled: boolean }) {
  const { cart, payment, disabled } = props;
  const [card, setCard] = useState(testCards[0]?.paymentMethodId ?? "pm_card_visa");
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void payment.start({ paymentMethodId: card });
      }}
    >
      <fieldset className={styles.plainFieldset} disabled={payment.paying}>
        <legend className={styles.legend}>Test card</legend>
        <p className={styles.muted} id="test-card-hint">
          This demo takes no real cards. Pick one of Stripe&apos;s test cards to see each outcome.
        </p>
        <div className={styles.options} aria-describedby="test-card-hint">
          {testCards.map((option) => (
            <label key={option.paymentMethodId} className={styles.option}>
              <input type="radio" name="test-card" value={option.paymentMethodId} checked={card === option.paymentMethodId} onChange={() => setCard(option.paymentMethodId)} />
              <span>
                {option.brand} ending {option.last4}
              </span>
              <span className={styles.optionPrice}>{option.outcome}</span>
            </label>
          ))}
        </div>
        <button type="submit" className={`${styles.primaryButton} ${styles.payButton}`} disabled={disabled || payment.paying} data-testid="pay-button">
          {payment.paying ? "Processing payment…" : `Pay ${cart.orderTotalWithServiceFeeFormatted}`}
        </button>
      </fieldset>
    </form>
  );
}

function PaymentMessages(props: { payment: PaymentState }) {
  const { payment } = props;
  const failureRef = useRef<HTMLDivElement>(null);
  // A declined card: bring the customer to the message (on a phone it lands below the screen) and
  // put focus on it, so keyboard and screen-reader users are there too.
  useEffect(() => {
    if (!payment.failure) return;
    failureRef.current?.scrollIntoView({ block: "center" });
    failureRef.current?.focus();
  }, [payment.failure]);
  return (
    <>
      <p role="status" className={styles.status}>
        {payment.paying ? "Processing your payment…" : payment.needsReview ? "Your cart changed since it was priced. Review the changes above, then pay." : ""}
      </p>
      {payment.failure ? (
        <div role="alert" className={styles.error} data-testid="payment-failure" ref={failureRef} tabIndex={-1}>
          <p>
            <strong>Payment not completed. </strong>
            {payment.failure.message}
          </p>
          <p>{failureHint(payment.failure.code)}</p>
        </div>
      ) : null}
      {payment.error ? <ErrorNotice error={payment.error} title="We could not take the payment." /> : null}
    </>
  );
}

/** Where a table-side or room-service order is served has been given (the server refuses to take payment without it). */
function serviceDetailsGiven(cart: Cart): boolean {
  const filled = (value: unknown) => typeof value === "string" && value.trim() !== "";
  if (cart.fulfilmentMethod === "table_side") return filled(cart.tableServiceInfo?.tableNumber);
  if (cart.fulfilmentMethod === "room_service") return filled(cart.roomServiceInfo?.roomNumber) && filled(cart.roomServiceInfo?.lastName);
  return true;
}
