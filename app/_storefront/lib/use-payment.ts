import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { cartIntents, checkoutCalls } from "./api";
import { pay, type Confirmation, type PayOutcome } from "./checkout-flow";
import type { StorefrontError } from "./errors";
import { browserOrderStore } from "./order-store";
import type { Cart, Location, PaymentSession } from "./types";
import type { CartState } from "./use-cart";

export type PaymentState = {
  paying: boolean;
  /** The last card failure (declined, authentication required): the cart is OPEN for another card. */
  failure: { code: string; message: string } | null;
  error: StorefrontError | null;
  /** The cart changed since it was priced; the customer reviews the changes first. */
  needsReview: boolean;
  /**
   * Runs one payment. `confirm` is the card side (nothing for test cards, Stripe.js otherwise);
   * `paymentMethodId` goes with the report when the server is to confirm.
   */
  start: (options: { confirm?: (session: PaymentSession, returnUrl: string) => Promise<Confirmation>; paymentMethodId?: string }) => Promise<void>;
};

export const orderPath = (locationSlug: string, cartId: string) => `/l/${locationSlug}/order/${cartId}`;

/** The pay button's behaviour, shared by the test-card picker and the Stripe Payment Element. */
export function usePayment(cart: Cart, cartState: CartState, location: Location): PaymentState {
  const router = useRouter();
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<PaymentState["failure"]>(null);
  const [error, setError] = useState<StorefrontError | null>(null);
  const [needsReview, setNeedsReview] = useState(false);
  const { write, report, run, handle } = cartState;

  const start = useCallback<PaymentState["start"]>(
    async ({ confirm, paymentMethodId }) => {
      setPaying(true);
      setFailure(null);
      setError(null);
      setNeedsReview(false);
      const returnUrl = new URL(orderPath(location.slug, cart.id), window.location.origin).toString();
      // The status page follows the payment with the cart's own capability: saved before any money moves.
      const held = handle();
      if (held) {
        browserOrderStore().write({
          locationId: held.locationId,
          locationSlug: location.slug,
          cartId: held.cartId,
          cartAccessToken: held.cartAccessToken,
          ...(held.cartAccessToken === null ? { merchantSlug: location.merchant.slug } : {}),
        });
      }
      const outcome: PayOutcome = await pay({
        createSession: () => write(checkoutCalls.paymentSession()),
        confirm: (session) => (confirm ? confirm(session, returnUrl) : Promise.resolve({ ok: true })),
        report: (quoteFingerprint) => report(checkoutCalls.reportPayment(quoteFingerprint, paymentMethodId)),
        check: async () => {
          const checked = await run(cartIntents.validate({}));
          return checked.ok ? { ok: true, value: checked.cart } : checked;
        },
      });
      setPaying(false);
      switch (outcome.kind) {
        case "placed":
          router.push(orderPath(location.slug, cart.id));
          return;
        case "failed":
          setFailure(outcome.failure);
          return;
        case "review":
          setNeedsReview(true);
          return;
        case "error":
          setError(outcome.error);
      }
    },
    [cart.id, handle, location.slug, report, router, run, write],
  );

  return { paying, failure, error, needsReview, start };
}
