import Big from "big.js";
import { type DateTime } from "luxon";
import type { CartLine, FulfilmentMethod, PickupType, PricedCart } from "./cart-types";
import type { FeePolicy, FulfilmentPolicy, MenuAvailability, ModifierGroup, WeeklyHours } from "./catalog-types";
import type { DeliveryQuote } from "./delivery";
import { toDecimalString, type Currency, type Minor } from "./money";
import { isMenuAvailableAt, orderTimeServable } from "./schedule";

/**
 * The revalidation diff: an old priced cart plus the current catalog, policy, schedule and quote
 * facts give the updated lines and the spec's change set. Pure and deterministic.
 *
 * Every change entry is one of four kinds, read from its reason and permitted actions:
 * - blocking: no ACCEPT_CHANGES among its actions; the customer must edit the cart (remove the
 *   item, reselect options, change the time, start a new cart) before paying;
 * - acknowledge: ACCEPT_CHANGES permitted; the change is already applied to the cart (a new price,
 *   a reduced quantity, a new fee) and the customer accepts it through validate-and-update;
 * - renewal: QUOTE_EXPIRED with `after: null`; a quote ran out or went stale and validate-and-update
 *   renews it;
 * - info: no actions; recorded for the customer (a quote renewed at the same price).
 */
export const reasonCodes = [
  "ITEM_SOLD_OUT",
  "ITEM_UNAVAILABLE",
  "PRICE_CHANGED",
  "MODIFIER_UNAVAILABLE",
  "MODIFIER_RULE_CHANGED",
  "QUANTITY_REDUCED",
  "SCHEDULE_CLOSED",
  "FULFILLMENT_UNAVAILABLE",
  "MAPPING_MISSING",
  "POLICY_CHANGED",
  "QUOTE_EXPIRED",
] as const;
export type ReasonCode = (typeof reasonCodes)[number];

export const permittedActions = ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM", "RESELECT_MODIFIERS", "CHANGE_FULFILLMENT", "START_NEW_CART"] as const;
export type PermittedAction = (typeof permittedActions)[number];

export type RevisionSet = {
  cartRevision: number;
  catalogPublicationRevision: number | null;
  resolvedCatalogSnapshotRevision: number | null;
  commercePolicyRevision: number;
  providerBindingRevision: number | null;
};

export type Scalar = string | number | boolean | null;

export type Change = {
  reason: ReasonCode;
  cartItemId: string | null;
  canonicalEntityId: string | null;
  path: string;
  before: Scalar;
  after: Scalar;
  permittedActions: PermittedAction[];
};

export type ChangeSet = {
  version: 1;
  previous: RevisionSet;
  current: RevisionSet;
  reasonCodes: ReasonCode[];
  changes: Change[];
  blocking: boolean;
  reconfirmationRequired: boolean;
  invalidatedEvidence: { quote: boolean; benefits: boolean; paymentAuthorization: boolean };
};

export type CatalogRevalidation = {
  required: boolean;
  reasonCodes: ReasonCode[];
  changeSet: ChangeSet;
  checkedAt: string;
  acknowledgedAt: string | null;
};

/** A product as the revalidation sees it, with the availability of the menu it is listed on. */
export type CatalogProduct = {
  id: string;
  name: string;
  description: string;
  imageUrl: string;
  categoryId: string;
  priceMinor: Minor;
  available: boolean;
  /** Most of the product one line may hold; null: no catalog limit. */
  maxQuantity: number | null;
  modifierGroups: ModifierGroup[];
  /** null: served whenever the location is open. */
  menuAvailability: MenuAvailability | null;
};

export type CatalogFacts = {
  catalogRevision: number;
  policyRevision: number;
  timeZone: string;
  openingHours: WeeklyHours;
  fulfilment: FulfilmentPolicy;
  fees: FeePolicy;
  /** The location's current products, by id; a cart's product missing here is gone or moved. */
  products: ReadonlyMap<string, CatalogProduct>;
};

export type RevalidationCart = {
  revision: number;
  catalogRevision: number;
  policyRevision: number;
  currency: Currency;
  fulfilmentMethod: FulfilmentMethod;
  pickupType: PickupType;
  orderDate: string;
  orderTime: string;
  lines: readonly CartLine[];
  /** The rates and fixed fees the cart was last priced with. */
  fees: PricedCart["fees"];
  hasDiscount: boolean;
  catalogRevalidation: CatalogRevalidation | null;
};

/** The cart-level quote: still valid, expired and waiting for renewal, or renewed by this check. */
export type QuoteFact = { state: "current" } | { state: "expired"; expiredAt: string } | { state: "renewed"; expiredAt: string; expiresAt: string };

/** The courier quote of a delivery cart, as the caller found it (the courier is asked outside). */
export type DeliveryFact =
  | { state: "none" | "current" }
  | { state: "stale" | "expired"; quote: DeliveryQuote }
  | { state: "renewed"; before: DeliveryQuote; after: DeliveryQuote }
  | { state: "rejected"; addressString: string; message: string };

export type RevalidationInput = {
  cart: RevalidationCart;
  catalog: CatalogFacts;
  quote: QuoteFact;
  delivery: DeliveryFact;
  now: Date;
  /** The revision the cart will have once this result is stored (its current one for a read). */
  nextCartRevision: number;
};

export type RevalidationResult = { lines: CartLine[]; revalidation: CatalogRevalidation };

const ACCEPT: PermittedAction[] = ["ACCEPT_CHANGES"];
const ACCEPT_OR_EDIT: PermittedAction[] = ["ACCEPT_CHANGES", "EDIT_ITEM", "REMOVE_ITEM"];
const REMOVE: PermittedAction[] = ["REMOVE_ITEM"];
const RESELECT: PermittedAction[] = ["RESELECT_MODIFIERS", "REMOVE_ITEM"];

export type ChangeKind = "blocking" | "acknowledge" | "renewal" | "info";

export function changeKind(change: Change): ChangeKind {
  if (change.permittedActions.length === 0) return "info";
  if (change.reason === "QUOTE_EXPIRED" && change.after === null) return "renewal";
  return change.permittedActions.includes("ACCEPT_CHANGES") ? "acknowledge" : "blocking";
}

export function revalidate(input: RevalidationInput): RevalidationResult {
  const { cart, catalog } = input;
  const schedule = scheduleAt(cart, catalog, input.now);
  const projected = projectLines(cart.lines, catalog, cart.currency, schedule.open ? schedule.moment : null);
  const cartChanges = [
    ...fulfilmentChanges(cart, catalog, schedule),
    ...(cart.lines.length > 0 ? policyChanges(cart, catalog) : []),
    ...quoteChanges(input.quote),
    ...deliveryChanges(input.delivery, cart.currency),
  ];
  const revisions = {
    previous: revisionSet(cart.revision, cart.catalogRevision, cart.policyRevision),
    current: revisionSet(input.nextCartRevision, catalog.catalogRevision, catalog.policyRevision),
  };
  const revalidation = buildRevalidation({
    previous: cart.catalogRevalidation,
    fresh: [...projected.changes, ...cartChanges],
    cartItemIds: projected.lines.map((line) => line.id),
    revisions,
    hasDiscount: cart.hasDiscount,
    now: input.now,
  });
  return { lines: projected.lines, revalidation };
}

/**
 * Re-reads every line against the catalog: current prices and descriptive fields are applied, a
 * quantity above a shrunken maximum is reduced, and whatever cannot be applied (a product gone or
 * sold out, an option withdrawn, a rule the line now breaks) is left as it was and reported.
 * `servedAt`: the order moment to check menu availability at, or null to skip that check.
 */
export function projectLines(lines: readonly CartLine[], catalog: CatalogFacts, currency: Currency, servedAt: DateTime | null): { lines: CartLine[]; changes: Change[] } {
  const changes: Change[] = [];
  const money = (minor: Minor) => toDecimalString(minor, currency);
  const projected = lines.map((line, index): CartLine => {
    const at = `items.${index}`;
    const entry = (reason: ReasonCode, path: string, before: Scalar, after: Scalar, actions: PermittedAction[], entityId: string | null = line.productId) =>
      changes.push({ reason, cartItemId: line.id, canonicalEntityId: entityId, path: `${at}.${path}`, before, after, permittedActions: actions });
    const product = catalog.products.get(line.productId);
    if (!product) {
      entry("ITEM_UNAVAILABLE", "productId", line.productId, null, REMOVE);
      return line;
    }
    if (!product.available) {
      entry("ITEM_SOLD_OUT", "available", true, false, REMOVE);
      return line;
    }
    if (servedAt && !isMenuAvailableAt(product.menuAvailability, servedAt)) {
      entry("SCHEDULE_CLOSED", "servedAtOrderTime", true, false, ["CHANGE_FULFILLMENT", "REMOVE_ITEM"]);
    }
    if (product.priceMinor !== line.basePriceMinor) {
      entry("PRICE_CHANGED", "product.price", money(line.basePriceMinor), money(product.priceMinor), ACCEPT_OR_EDIT);
    }
    const selections = line.selections.map((selection, position) => {
      const group = product.modifierGroups.find((candidate) => candidate.id === selection.modifierGroupId);
      const option = group?.options.find((candidate) => candidate.id === selection.optionId);
      const path = `selections.${position}`;
      if (!group || !option || !option.available) {
        entry("MODIFIER_UNAVAILABLE", `${path}.optionId`, selection.optionId, null, RESELECT, selection.optionId);
        return selection;
      }
      if (selection.quantity > group.maxPerOption) {
        entry("MODIFIER_RULE_CHANGED", `${path}.quantity`, selection.quantity, group.maxPerOption, RESELECT, group.id);
      }
      if (option.priceMinor !== selection.priceMinor) {
        entry("PRICE_CHANGED", `${path}.price`, money(selection.priceMinor), money(option.priceMinor), ACCEPT_OR_EDIT, option.id);
      }
      return { ...selection, modifierGroupName: group.name, optionName: option.name, priceMinor: option.priceMinor };
    });
    for (const group of product.modifierGroups) {
      const count = line.selections.filter((selection) => selection.modifierGroupId === group.id).reduce((sum, selection) => sum + selection.quantity, 0);
      if (count < group.minSelections || count > group.maxSelections) {
        entry("MODIFIER_RULE_CHANGED", `modifierGroups.${group.id}`, count, `${group.minSelections}..${group.maxSelections}`, RESELECT, group.id);
      }
    }
    let quantity = line.quantity;
    if (product.maxQuantity !== null && quantity > product.maxQuantity) {
      entry("QUANTITY_REDUCED", "quantity", quantity, product.maxQuantity, ACCEPT_OR_EDIT);
      quantity = product.maxQuantity;
    }
    return {
      ...line,
      name: product.name,
      description: product.description,
      imageUrl: product.imageUrl,
      categoryId: product.categoryId,
      basePriceMinor: product.priceMinor,
      quantity,
      selections,
    };
  });
  return { lines: projected, changes };
}

type Schedule = { open: boolean; moment: DateTime | null; label: string };

/** Whether the cart's order time (now for ASAP) can still be served with its fulfilment method. */
function scheduleAt(cart: RevalidationCart, catalog: CatalogFacts, now: Date): Schedule {
  const { servable, moment, label } = orderTimeServable(cart, catalog, now);
  return { open: servable, moment, label };
}

function fulfilmentChanges(cart: RevalidationCart, catalog: CatalogFacts, schedule: Schedule): Change[] {
  const cartLevel = (reason: ReasonCode, path: string, before: Scalar, actions: PermittedAction[]): Change => ({
    reason,
    cartItemId: null,
    canonicalEntityId: null,
    path,
    before,
    after: null,
    permittedActions: actions,
  });
  if (!catalog.fulfilment[cart.fulfilmentMethod]?.enabled) return [cartLevel("FULFILLMENT_UNAVAILABLE", "fulfilmentMethod", cart.fulfilmentMethod, ["START_NEW_CART"])];
  return schedule.open ? [] : [cartLevel("SCHEDULE_CLOSED", "orderTime", schedule.label, ["CHANGE_FULFILLMENT"])];
}

/** Customer-facing fees only: merchant-borne fees (enterprise, processing) change nothing the customer pays. */
function policyChanges(cart: RevalidationCart, catalog: CatalogFacts): Change[] {
  const option = catalog.fulfilment[cart.fulfilmentMethod];
  if (!option) return [];
  const money = (minor: Minor) => toDecimalString(minor, cart.currency);
  const compared: [string, string, string, boolean][] = [
    ["taxRate", cart.fees.taxRate, catalog.fees.taxRate, true],
    ["serviceFeeRate", cart.fees.serviceFeeRate, catalog.fees.serviceFeeRate, true],
    ["serviceFeeFix", money(cart.fees.serviceFeeFixMinor), money(catalog.fees.serviceFeeFixMinor), false],
    ["fulfillmentMethodFeeRate", cart.fees.fulfillmentMethodFeeRate, option.feeRate, true],
    ["fulfillmentMethodFeeFix", money(cart.fees.fulfillmentMethodFeeFixMinor), money(option.feeFixMinor), false],
  ];
  return compared
    .filter(([, before, after]) => !new Big(before).eq(after))
    .map(([name, before, after]) => ({
      reason: "POLICY_CHANGED" as const,
      cartItemId: null,
      canonicalEntityId: null,
      path: `fees.${name}`,
      before,
      after,
      permittedActions: ACCEPT,
    }));
}

function quoteChanges(quote: QuoteFact): Change[] {
  if (quote.state === "current") return [];
  const after = quote.state === "renewed" ? quote.expiresAt : null;
  return [{ reason: "QUOTE_EXPIRED", cartItemId: null, canonicalEntityId: null, path: "quoteExpiresAt", before: quote.expiredAt, after, permittedActions: after === null ? ACCEPT : [] }];
}

function deliveryChanges(delivery: DeliveryFact, currency: Currency): Change[] {
  const entry = (reason: ReasonCode, path: string, before: Scalar, after: Scalar, actions: PermittedAction[], entityId: string | null): Change => ({
    reason,
    cartItemId: null,
    canonicalEntityId: entityId,
    path,
    before,
    after,
    permittedActions: actions,
  });
  switch (delivery.state) {
    case "none":
    case "current":
      return [];
    case "stale":
    case "expired":
      return [entry("QUOTE_EXPIRED", "deliveryQuote", delivery.quote.externalDeliveryId, null, ACCEPT, delivery.quote.externalDeliveryId)];
    case "rejected":
      return [entry("FULFILLMENT_UNAVAILABLE", "deliveryInfo.addressString", delivery.addressString, null, ["CHANGE_FULFILLMENT", "START_NEW_CART"], null)];
    case "renewed": {
      const { before, after } = delivery;
      const money = (minor: Minor) => toDecimalString(minor, currency);
      const changes = [entry("QUOTE_EXPIRED", "deliveryQuote.externalDeliveryId", before.externalDeliveryId, after.externalDeliveryId, [], after.externalDeliveryId)];
      if (before.feeMinor !== after.feeMinor) changes.push(entry("QUOTE_EXPIRED", "deliveryQuote.fee", money(before.feeMinor), money(after.feeMinor), ACCEPT, after.externalDeliveryId));
      if (before.taxMinor !== after.taxMinor) changes.push(entry("QUOTE_EXPIRED", "deliveryQuote.tax", money(before.taxMinor), money(after.taxMinor), ACCEPT, after.externalDeliveryId));
      return changes;
    }
  }
}

export function revisionSet(cartRevision: number, catalogRevision: number, policyRevision: number): RevisionSet {
  return {
    cartRevision,
    catalogPublicationRevision: catalogRevision,
    resolvedCatalogSnapshotRevision: catalogRevision,
    commercePolicyRevision: policyRevision,
    providerBindingRevision: null,
  };
}

/**
 * Folds a fresh diff into what the cart already carries. Blocking, renewal and info entries
 * describe the cart as it is now, so only the fresh ones count. Acknowledgeable entries were
 * applied when first found, so a later diff no longer sees them: they are carried until the
 * customer accepts them (with their paths re-pointed at the line's current position), and a
 * second change to the same field keeps the first `before`.
 */
export function buildRevalidation(args: {
  previous: CatalogRevalidation | null;
  fresh: Change[];
  cartItemIds: readonly string[];
  revisions: { previous: RevisionSet; current: RevisionSet };
  hasDiscount: boolean;
  now: Date;
}): CatalogRevalidation {
  const { previous } = args;
  const carried = (previous?.changeSet.changes ?? []).flatMap((change) => {
    if (changeKind(change) !== "acknowledge") return [];
    if (change.cartItemId === null) return [change];
    const index = args.cartItemIds.indexOf(change.cartItemId);
    return index < 0 ? [] : [{ ...change, path: change.path.replace(/^items\.\d+/, `items.${index}`) }];
  });
  const freshAcknowledge = args.fresh.some((change) => changeKind(change) === "acknowledge");
  let changes: Change[];
  let acknowledgedAt: string | null;
  if (!freshAcknowledge) {
    changes = [...carried, ...args.fresh];
    acknowledgedAt = previous?.acknowledgedAt ?? null;
  } else if (previous?.acknowledgedAt) {
    changes = args.fresh;
    acknowledgedAt = null;
  } else {
    changes = mergeByPath(carried, args.fresh);
    acknowledgedAt = null;
  }
  const pendingSince = previous?.required ? previous.changeSet.previous : args.revisions.previous;
  return summarize(changes, { previous: pendingSince, current: args.revisions.current }, args.hasDiscount, args.now.toISOString(), acknowledgedAt);
}

/** The customer accepts the applied changes; blocking ones and pending renewals still stand. */
export function acknowledgeRevalidation(revalidation: CatalogRevalidation, now: Date): CatalogRevalidation {
  const acknowledgedAt = now.toISOString();
  return { ...revalidation, acknowledgedAt, required: isRequired(revalidation.changeSet.changes, acknowledgedAt) };
}

function summarize(changes: Change[], revisions: { previous: RevisionSet; current: RevisionSet }, hasDiscount: boolean, checkedAt: string, acknowledgedAt: string | null): CatalogRevalidation {
  const kinds = changes.map(changeKind);
  const codes = reasonCodes.filter((code) => changes.some((change) => change.reason === code));
  const quoteInvalidated = kinds.some((kind) => kind !== "info");
  const lineAmountsChanged = changes.some((change, index) => change.cartItemId !== null && kinds[index] === "acknowledge");
  return {
    required: isRequired(changes, acknowledgedAt),
    reasonCodes: codes,
    changeSet: {
      version: 1,
      previous: revisions.previous,
      current: revisions.current,
      reasonCodes: codes,
      changes,
      blocking: kinds.includes("blocking"),
      reconfirmationRequired: kinds.includes("acknowledge") || kinds.includes("renewal"),
      invalidatedEvidence: { quote: quoteInvalidated, benefits: hasDiscount && lineAmountsChanged, paymentAuthorization: quoteInvalidated },
    },
    checkedAt,
    acknowledgedAt,
  };
}

function isRequired(changes: readonly Change[], acknowledgedAt: string | null): boolean {
  const kinds = changes.map(changeKind);
  return kinds.includes("blocking") || kinds.includes("renewal") || (kinds.includes("acknowledge") && acknowledgedAt === null);
}

/** Carried entries first, then the fresh diff in its own order; a field changed twice keeps its first `before`. */
function mergeByPath(carried: Change[], fresh: Change[]): Change[] {
  const earlier = new Map(carried.map((change) => [change.path, change]));
  const freshPaths = new Set(fresh.map((change) => change.path));
  const merged = fresh.map((change) => {
    const first = changeKind(change) === "acknowledge" ? earlier.get(change.path) : undefined;
    return first ? { ...change, before: first.before } : change;
  });
  return [...carried.filter((change) => !freshPaths.has(change.path)), ...merged].filter((change) => change.before !== change.after);
}
