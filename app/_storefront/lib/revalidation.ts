import type { StorefrontError } from "./errors";
import { formatMoney } from "./format";
import type { Cart, PermittedAction, RevalidationChange } from "./types";

/**
 * Reading the cart's catalogRevalidation the way validate-and-update documents it, and the
 * acceptance handshake. No money is computed here: before/after arrive as decimal strings and are
 * only formatted.
 *
 * Kinds (as the server's description of validate-and-update defines them):
 * - blocking: no ACCEPT_CHANGES; the customer must remove or edit the item, change the time or
 *   address, or start a new cart;
 * - acknowledge: ACCEPT_CHANGES; already applied (once checked) and waiting for the customer's yes;
 * - renewal: QUOTE_EXPIRED with no `after`; a quote ran out and the next check renews it;
 * - info: no actions; for the record (a quote renewed at the same price).
 */
export type ChangeKind = "blocking" | "acknowledge" | "renewal" | "info";

export function changeKind(change: RevalidationChange): ChangeKind {
  if (change.permittedActions.length === 0) return "info";
  if (change.reason === "QUOTE_EXPIRED" && change.after === null) return "renewal";
  return change.permittedActions.includes("ACCEPT_CHANGES") ? "acknowledge" : "blocking";
}

export const reasonText: Record<RevalidationChange["reason"], string> = {
  ITEM_SOLD_OUT: "Sold out",
  ITEM_UNAVAILABLE: "No longer on the menu",
  PRICE_CHANGED: "Price changed",
  MODIFIER_UNAVAILABLE: "A choice is no longer available",
  MODIFIER_RULE_CHANGED: "The choices for this item changed",
  QUANTITY_REDUCED: "Quantity reduced to the most allowed",
  SCHEDULE_CLOSED: "Not served at your chosen time",
  FULFILLMENT_UNAVAILABLE: "Your order type or address can no longer be served",
  MAPPING_MISSING: "Can no longer be ordered here",
  POLICY_CHANGED: "Fees or tax changed",
  QUOTE_EXPIRED: "Your quote expired",
};

const feeNames: Record<string, string> = {
  taxRate: "Tax rate",
  serviceFeeRate: "Service fee rate",
  serviceFeeFix: "Service fee",
  fulfillmentMethodFeeRate: "Delivery / service charge rate",
  fulfillmentMethodFeeFix: "Delivery / service charge",
};

const valueReasons = new Set<RevalidationChange["reason"]>(["PRICE_CHANGED", "QUANTITY_REDUCED", "POLICY_CHANGED", "QUOTE_EXPIRED"]);

export type DescribedChange = {
  /** What the change concerns: an item (and choice), a fee, the order time, the delivery. */
  subject: string;
  reason: string;
  before: string | null;
  after: string | null;
  kind: ChangeKind;
};

/** "0.0625" -> "6.25%", by moving the decimal point (no float). */
export function rateAsPercent(rate: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) return rate;
  const fraction = (match[2] ?? "").padEnd(2, "0");
  const whole = `${match[1] ?? "0"}${fraction.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = fraction.slice(2).replace(/0+$/, "");
  return `${whole}${rest ? `.${rest}` : ""}%`;
}

function valueText(path: string, value: RevalidationChange["before"], cart: Cart): string | null {
  if (value === null) return null;
  if (typeof value === "string") {
    const money = /(\.price|deliveryQuote\.fee|deliveryQuote\.tax|Fix)$/.test(path);
    if (money && /^\d+(\.\d+)?$/.test(value)) return formatMoney(value, cart.currency);
    if (/Rate$/.test(path)) return rateAsPercent(value);
  }
  return String(value);
}

export function describeChange(change: RevalidationChange, cart: Cart): DescribedChange {
  const item = change.cartItemId ? cart.items.find((candidate) => candidate.id === change.cartItemId) : undefined;
  const selectionIndex = /\.selections\.(\d+)\./.exec(change.path)?.[1];
  const selection = item && selectionIndex !== undefined ? item.selections[Number(selectionIndex)] : undefined;
  let subject: string;
  if (item) subject = selection ? `${item.name}: ${selection.optionName}` : item.name;
  else if (change.path.startsWith("fees.")) subject = feeNames[change.path.slice("fees.".length)] ?? "Fees";
  else if (change.path.startsWith("deliveryQuote")) subject = change.path === "deliveryQuote.tax" ? "Delivery tax" : change.path === "deliveryQuote.fee" ? "Courier fee" : "Courier quote";
  else if (change.path.startsWith("deliveryInfo")) subject = "Delivery address";
  else if (change.path === "orderTime" || change.path === "fulfilmentMethod") subject = "Order time and type";
  else if (change.path === "quoteExpiresAt") subject = "Price quote";
  else subject = "Your cart";
  // Amounts and quantities mean something to a customer; ids, flags and expiry times do not.
  const showValues = valueReasons.has(change.reason) && (change.reason !== "QUOTE_EXPIRED" || /\.(fee|tax)$/.test(change.path));
  return {
    subject,
    reason: reasonText[change.reason],
    before: showValues ? valueText(change.path, change.before, cart) : null,
    after: showValues ? valueText(change.path, change.after, cart) : null,
    kind: changeKind(change),
  };
}

export function hasAction(change: RevalidationChange, action: PermittedAction): boolean {
  return change.permittedActions.includes(action);
}

/** An acceptable change, independent of where its line now sits in the cart (paths are re-pointed). */
function acceptanceKey(change: RevalidationChange): string {
  return [change.reason, change.cartItemId ?? "", change.canonicalEntityId ?? "", change.path.replace(/^items\.\d+/, "items"), JSON.stringify(change.after)].join("|");
}

/**
 * Whether a fresh check asks the customer to accept nothing beyond what they were shown: no
 * blocking change, and every acceptable change already on the list they agreed to.
 */
export function coveredByReview(shown: readonly RevalidationChange[], fresh: readonly RevalidationChange[]): boolean {
  const seen = new Set(shown.filter((change) => changeKind(change) === "acknowledge").map(acceptanceKey));
  return fresh.every((change) => {
    const kind = changeKind(change);
    if (kind === "blocking" || kind === "renewal") return false;
    return kind === "info" || seen.has(acceptanceKey(change));
  });
}

export type ValidateInput = { accept: true; quoteFingerprint: string } | Record<string, never>;
export type Validated = { ok: true; cart: Cart } | { ok: false; error: StorefrontError };
export type AcceptOutcome = { kind: "accepted"; cart: Cart } | { kind: "review-again"; cart: Cart } | { kind: "error"; error: StorefrontError };

/**
 * The customer said yes to the changes on screen. validate-and-update accepts only the quote the
 * customer saw (`quoteFingerprint`); when the cart shown was not checked yet (a read reports news it
 * does not store) or moved on, the server answers REQUOTE_REQUIRED: then check, and accept the
 * checked quote only if it asks for nothing more than what was shown; otherwise show it again.
 */
export async function acceptReviewedChanges(cart: Cart, validate: (input: ValidateInput) => Promise<Validated>): Promise<AcceptOutcome> {
  const shown = cart.catalogRevalidation?.changeSet.changes ?? [];
  if (cart.quoteFingerprint) {
    const accepted = await validate({ accept: true, quoteFingerprint: cart.quoteFingerprint });
    if (accepted.ok) return { kind: "accepted", cart: accepted.cart };
    if (accepted.error.code !== "REQUOTE_REQUIRED") return { kind: "error", error: accepted.error };
  }
  const checked = await validate({});
  if (!checked.ok) return { kind: "error", error: checked.error };
  const fresh = checked.cart.catalogRevalidation;
  if (!fresh?.required) return { kind: "accepted", cart: checked.cart };
  if (!checked.cart.quoteFingerprint || !coveredByReview(shown, fresh.changeSet.changes)) return { kind: "review-again", cart: checked.cart };
  const accepted = await validate({ accept: true, quoteFingerprint: checked.cart.quoteFingerprint });
  if (accepted.ok) return { kind: "accepted", cart: accepted.cart };
  if (accepted.error.code === "REQUOTE_REQUIRED") return { kind: "review-again", cart: checked.cart };
  return { kind: "error", error: accepted.error };
}
