"use client";

import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState, type FormEvent } from "react";
import type { Confirmation } from "../lib/checkout-flow";
import type { Cart, PaymentSession } from "../lib/types";
import type { PaymentState } from "../lib/use-payment";
import styles from "../storefront.module.css";

/**
 * Stripe's Payment Element, for deployments with a Stripe publishable key (payment-config says
 * so). Loaded only then: it fetches js.stripe.com at run time. The intent is created when the
 * customer presses Pay (deferred intent): the element is shown with the cart's amount, the
 * payment session is created for the cart's current quote, Stripe.js confirms it (authorizes,
 * manual capture, as the service's intents are), and then the payment is reported.
 */
const stripes = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

export default function StripePayment(props: { publishableKey: string; cart: Cart; payment: PaymentState; disabled: boolean }) {
  const { publishableKey, cart } = props;
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ mode: "payment", amount: cart.orderTotalWithServiceFeeAmount, currency: cart.currency, captureMethod: "manual", allowedPaymentMethodTypes: ["card"] }}
    >
      <StripeForm {...props} />
    </Elements>
  );
}

function StripeForm(props: { cart: Cart; payment: PaymentState; disabled: boolean }) {
  const { cart, payment, disabled } = props;
  const stripe = useStripe();
  const elements = useElements();
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProblem(undefined);
    // The element was created with the amount of an earlier render; the cart may have changed since.
    await elements.update({ amount: cart.orderTotalWithServiceFeeAmount, currency: cart.currency });
    const submitted = await elements.submit();
    if (submitted.error) {
      setProblem(submitted.error.message ?? "Check your card details.");
      return;
    }
    const confirm = async (session: PaymentSession, returnUrl: string): Promise<Confirmation> => {
      const result = await stripe.confirmPayment({ elements, clientSecret: session.clientSecret, redirect: "if_required", confirmParams: { return_url: returnUrl } });
      if (result.error) return { ok: false, failure: { code: result.error.code ?? result.error.type, message: result.error.message ?? "The card was not accepted." } };
      return { ok: true };
    };
    await payment.start({ confirm });
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <PaymentElement options={{ layout: "tabs" }} />
      {problem ? (
        <p role="alert" className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      <button type="submit" className={`${styles.primaryButton} ${styles.payButton}`} disabled={disabled || payment.paying || !stripe || !elements} data-testid="pay-button">
        {payment.paying ? "Processing payment…" : `Pay ${cart.orderTotalWithServiceFeeFormatted}`}
      </button>
    </form>
  );
}
