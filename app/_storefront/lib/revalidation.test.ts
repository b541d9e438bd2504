import { describe, expect, it } from "vitest";
import { StorefrontError } from "./errors";
import { acceptReviewedChanges, changeKind, coveredByReview, describeChange, rateAsPercent, type ValidateInput, type Validated } from "./revalidation";
import type { Cart, RevalidationChange } from "./types";

const FINGERPRINT_A = "a".repeat(64);
const FINGERPRINT_B = "b".repeat(64);

function change(overrides: Partial<RevalidationChange>): RevalidationChange {
  return { reason: "PRICE_CHANGED", cartItemId: "itm_1", canonicalEntityId: "prd_roll", path: "items.0.product.price", before: "28.50", after: "31.50", permittedActions: ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"], ...overrides };
}

/** Only the Cart fields these helpers read. */
function cart(changes: RevalidationChange[] | null, quoteFingerprint: string | null = FINGERPRINT_A): Cart {
  return {
    currency: "usd",
    quoteFingerprint,
    items: [{ id: "itm_1", name: "Lobster Roll", productId: "prd_roll", selections: [{ optionName: "Maine (chilled, lemon mayo)" }] }],
    catalogRevalidation: changes === null ? null : { required: changes.some((entry) => changeKind(entry) !== "info"), changeSet: { changes } },
  } as unknown as Cart;
}

const requote = () => new StorefrontError({ code: "REQUOTE_REQUIRED", message: "requote", status: 409 });

/** A scripted validate-and-update: answers in order, and records what it was asked. */
function scripted(...answers: Validated[]) {
  const calls: ValidateInput[] = [];
  const validate = (input: ValidateInput) => {
    calls.push(input);
    const answer = answers.shift();
    if (!answer) throw new Error("validate called more often than scripted");
    return Promise.resolve(answer);
  };
  return { calls, validate };
}

describe("reading a change set", () => {
  it("classifies changes the way validate-and-update documents them", () => {
    expect(changeKind(change({}))).toBe("acknowledge");
    expect(changeKind(change({ reason: "ITEM_SOLD_OUT", permittedActions: ["REMOVE_ITEM"] }))).toBe("blocking");
    expect(changeKind(change({ reason: "QUOTE_EXPIRED", path: "deliveryQuote", after: null, permittedActions: ["ACCEPT_CHANGES"] }))).toBe("renewal");
    expect(changeKind(change({ reason: "QUOTE_EXPIRED", path: "deliveryQuote.externalDeliveryId", permittedActions: [] }))).toBe("info");
  });

  it("names the item (and choice) and formats amounts without arithmetic", () => {
    expect(describeChange(change({}), cart([]))).toEqual({ subject: "Lobster Roll", reason: "Price changed", before: "$28.50", after: "$31.50", kind: "acknowledge" });
    expect(describeChange(change({ path: "items.0.selections.0.price", before: "0.00", after: "1.50" }), cart([])).subject).toBe("Lobster Roll: Maine (chilled, lemon mayo)");
    const fee = describeChange(change({ reason: "POLICY_CHANGED", cartItemId: null, path: "fees.serviceFeeRate", before: "0.03", after: "0.035", permittedActions: ["ACCEPT_CHANGES"] }), cart([]));
    expect([fee.subject, fee.before, fee.after]).toEqual(["Service fee rate", "3%", "3.5%"]);
    const courier = describeChange(change({ reason: "QUOTE_EXPIRED", cartItemId: null, path: "deliveryQuote.fee", before: "4.19", after: "4.79", permittedActions: ["ACCEPT_CHANGES"] }), cart([]));
    expect([courier.subject, courier.after]).toEqual(["Courier fee", "$4.79"]);
    const soldOut = describeChange(change({ reason: "ITEM_SOLD_OUT", path: "items.0.available", before: true, after: false, permittedActions: ["REMOVE_ITEM"] }), cart([]));
    expect([soldOut.reason, soldOut.before, soldOut.after]).toEqual(["Sold out", null, null]);
  });

  it("writes rates as percentages by moving the decimal point", () => {
    expect(["0.0625", "0.03", "0.035", "0", "1", "0.5", "0.125"].map(rateAsPercent)).toEqual(["6.25%", "3%", "3.5%", "0%", "100%", "50%", "12.5%"]);
  });

  it("knows whether a fresh check asks for more than the customer was shown", () => {
    const shown = [change({})];
    expect(coveredByReview(shown, [change({ path: "items.3.product.price" })])).toBe(true);
    expect(coveredByReview(shown, [change({ after: "32.00" })])).toBe(false);
    expect(coveredByReview(shown, [change({}), change({ reason: "QUANTITY_REDUCED", path: "items.0.quantity", before: 5, after: 3 })])).toBe(false);
    expect(coveredByReview(shown, [change({}), change({ reason: "QUOTE_EXPIRED", cartItemId: null, path: "quoteExpiresAt", permittedActions: [] })])).toBe(true);
    expect(coveredByReview(shown, [change({ reason: "ITEM_SOLD_OUT", permittedActions: ["REMOVE_ITEM"] })])).toBe(false);
  });
});

describe("accepting reviewed changes", () => {
  it("accepts a checked cart at once, with the quote the customer saw", async () => {
    const shown = cart([change({})]);
    const done = cart(null, FINGERPRINT_B);
    const server = scripted({ ok: true, cart: done });
    expect(await acceptReviewedChanges(shown, server.validate)).toEqual({ kind: "accepted", cart: done });
    expect(server.calls).toEqual([{ accept: true, quoteFingerprint: FINGERPRINT_A }]);
  });

  it("checks an unchecked cart first, then accepts the checked quote when it holds nothing new", async () => {
    const shown = cart([change({})]);
    const checked = cart([change({})], FINGERPRINT_B);
    const done = cart(null, FINGERPRINT_B);
    const server = scripted({ ok: false, error: requote() }, { ok: true, cart: checked }, { ok: true, cart: done });
    expect(await acceptReviewedChanges(shown, server.validate)).toEqual({ kind: "accepted", cart: done });
    expect(server.calls).toEqual([{ accept: true, quoteFingerprint: FINGERPRINT_A }, {}, { accept: true, quoteFingerprint: FINGERPRINT_B }]);
  });

  it("shows the cart again when the check found something the customer has not seen", async () => {
    const shown = cart([change({})]);
    const checked = cart([change({ after: "33.00" })], FINGERPRINT_B);
    const server = scripted({ ok: false, error: requote() }, { ok: true, cart: checked });
    expect(await acceptReviewedChanges(shown, server.validate)).toEqual({ kind: "review-again", cart: checked });
    expect(server.calls).toHaveLength(2);
  });

  it("is done when the check leaves nothing to accept (a quote was only renewed)", async () => {
    const shown = cart([change({ reason: "QUOTE_EXPIRED", cartItemId: null, path: "deliveryQuote", after: null, permittedActions: ["ACCEPT_CHANGES"] })]);
    const renewed = cart([change({ reason: "QUOTE_EXPIRED", cartItemId: null, path: "deliveryQuote.externalDeliveryId", permittedActions: [] })], FINGERPRINT_B);
    const server = scripted({ ok: false, error: requote() }, { ok: true, cart: renewed });
    expect(await acceptReviewedChanges(shown, server.validate)).toEqual({ kind: "accepted", cart: renewed });
  });

  it("passes other errors through, and does not guess after one", async () => {
    const offline = new StorefrontError({ code: "NETWORK_ERROR", message: "offline", status: null });
    const server = scripted({ ok: false, error: offline });
    expect(await acceptReviewedChanges(cart([change({})]), server.validate)).toEqual({ kind: "error", error: offline });
    expect(server.calls).toHaveLength(1);
  });
});
