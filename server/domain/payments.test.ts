import { describe, expect, it } from "vitest";
import {
  apiCurrencyCode,
  belowProcessorMinimum,
  failureOf,
  intentCarriesTerms,
  intentStatuses,
  intentTermsFor,
  isAmendable,
  planIntentChange,
  PROCESSOR_MINIMUM_MINOR,
  type IntentStatus,
} from "./payments";

const cart = {
  id: "cart_1",
  locationId: "loc_1",
  merchantId: "mer_1",
  currency: "usd" as const,
  restaurantDisplayName: "Harbor Kitchen Downtown",
  quoteFingerprint: "f".repeat(64),
  priced: { orderTotalWithServiceFee: 1415 },
};
const terms = intentTermsFor(cart);
const intent = (status: IntentStatus, overrides: Partial<{ amountMinor: number; currency: string; metadata: Record<string, string> }> = {}) => ({
  status,
  amountMinor: terms.amountMinor,
  currency: "usd",
  metadata: { ...terms.metadata },
  ...overrides,
});

describe("processor minimums", () => {
  it("are Stripe's: USD 0.50, GBP 0.30, AUD 0.50, AED 2.00, compared in minor units", () => {
    expect(PROCESSOR_MINIMUM_MINOR).toEqual({ usd: 50, gbp: 30, aud: 50, aed: 200 });
    expect(belowProcessorMinimum(49, "usd")).toBe(true);
    expect(belowProcessorMinimum(50, "usd")).toBe(false);
    expect(belowProcessorMinimum(29, "gbp")).toBe(true);
    expect(belowProcessorMinimum(30, "gbp")).toBe(false);
    expect(belowProcessorMinimum(199, "aed")).toBe(true);
    expect(belowProcessorMinimum(200, "aed")).toBe(false);
    expect(belowProcessorMinimum(0, "aud")).toBe(true);
  });

  it("shows currencies upper-case in the API", () => {
    expect(apiCurrencyCode("aed")).toBe("AED");
  });
});

describe("intent terms", () => {
  it("charge the quote's orderTotalWithServiceFee and bind cart and quote in metadata", () => {
    expect(terms).toEqual({
      amountMinor: 1415,
      currency: "usd",
      metadata: { cartId: "cart_1", quoteFingerprint: "f".repeat(64), locationId: "loc_1", merchantId: "mer_1" },
      description: "Order at Harbor Kitchen Downtown",
    });
  });

  it("match only the same amount, currency (any case), cart and quote", () => {
    expect(intentCarriesTerms(intent("requires_capture"), terms)).toBe(true);
    expect(intentCarriesTerms(intent("requires_capture", { currency: "USD" }), terms)).toBe(true);
    expect(intentCarriesTerms(intent("requires_capture", { amountMinor: 1414 }), terms)).toBe(false);
    expect(intentCarriesTerms(intent("requires_capture", { currency: "gbp" }), terms)).toBe(false);
    expect(intentCarriesTerms(intent("requires_capture", { metadata: { ...terms.metadata, cartId: "cart_2" } }), terms)).toBe(false);
    expect(intentCarriesTerms(intent("requires_capture", { metadata: { ...terms.metadata, quoteFingerprint: "e".repeat(64) } }), terms)).toBe(false);
  });
});

describe("planIntentChange", () => {
  it("creates when there is no live intent", () => {
    expect(planIntentChange(null, terms)).toBe("create");
    expect(planIntentChange(intent("canceled"), terms)).toBe("create");
  });

  it("amends an intent without an authorization, and keeps one that already carries the quote", () => {
    for (const status of ["requires_payment_method", "requires_confirmation", "requires_action"] as const) {
      expect(isAmendable(status)).toBe(true);
      expect(planIntentChange(intent(status), terms)).toBe("ready");
      expect(planIntentChange(intent(status, { amountMinor: 999 }), terms)).toBe("update");
    }
  });

  it("releases an authorization for other terms instead of ever capturing it; keeps one for these terms", () => {
    expect(planIntentChange(intent("requires_capture"), terms)).toBe("ready");
    expect(planIntentChange(intent("requires_capture", { amountMinor: 999 }), terms)).toBe("cancel");
  });

  it("touches nothing while money moves or after it moved", () => {
    expect(planIntentChange(intent("processing"), terms)).toBe("busy");
    expect(planIntentChange(intent("succeeded"), terms)).toBe("busy");
  });

  it("has an answer for every status", () => {
    for (const status of intentStatuses) expect(["ready", "update", "cancel", "create", "busy"]).toContain(planIntentChange(intent(status), terms));
  });
});

describe("failureOf", () => {
  it("names why a reported payment did not go through", () => {
    expect(failureOf({ status: "requires_action", lastError: null }).code).toBe("authentication_required");
    expect(failureOf({ status: "canceled", lastError: null }).code).toBe("payment_canceled");
    expect(failureOf({ status: "requires_payment_method", lastError: { code: "insufficient_funds", message: "Your card has insufficient funds." } })).toEqual({
      code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    expect(failureOf({ status: "requires_payment_method", lastError: null }).code).toBe("payment_not_confirmed");
  });
});
