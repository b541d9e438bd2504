/**
 * Stripe's test payment methods that the simulated processor (and Stripe in test mode) knows: the
 * demo's stand-in for a card form when no Stripe publishable key is configured.
 */
export type TestCard = { paymentMethodId: string; brand: string; last4: string; outcome: string };

export const testCards: readonly TestCard[] = [
  { paymentMethodId: "pm_card_visa", brand: "Visa", last4: "4242", outcome: "payment succeeds" },
  { paymentMethodId: "pm_card_chargeDeclined", brand: "Visa", last4: "0002", outcome: "card is declined" },
  { paymentMethodId: "pm_card_authenticationRequired", brand: "Visa", last4: "3184", outcome: "bank asks for authentication" },
];
