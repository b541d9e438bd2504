"use client";

import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice";
import { cartIntents } from "../lib/api";
import type { StorefrontError } from "../lib/errors";
import { acceptReviewedChanges, describeChange, hasAction, type ValidateInput, type Validated } from "../lib/revalidation";
import type { Cart, RevalidationChange } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";

export const REVALIDATION_SECTION_ID = "revalidation";

/** Where CHANGE_FULFILLMENT sends the customer: the order time, or the delivery address. */
export type FulfilmentTarget = "time" | "address";

/**
 * What changed in the menu, fees or quotes since the cart was priced (cart.catalogRevalidation),
 * with what the customer may do about each change: accept the ones already applied (new prices, a
 * reduced quantity, new fees), and resolve the blocking ones (remove the item, choose its options
 * again, change the time or address, start a new cart). Checkout refuses until this is done.
 */
export function RevalidationSlot(props: {
  cart: Cart;
  cartState: CartState;
  /** Opens the product again to choose its options; undefined when the product is not on the menu now. */
  reselect?: (productId: string, itemId: string) => (() => void) | undefined;
  onChangeFulfilment: (target: FulfilmentTarget) => void;
}) {
  const { cart, cartState, reselect, onChangeFulfilment } = props;
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<StorefrontError>();
  const [note, setNote] = useState<string>();
  const revalidation = cart.catalogRevalidation;

  if (!revalidation?.required || cart.status !== "OPEN") {
    return note ? (
      <p role="status" className={styles.success} data-testid="revalidation-note">
        {note}
      </p>
    ) : null;
  }

  const described = revalidation.changeSet.changes.map((change) => ({ change, text: describeChange(change, cart) })).filter((entry) => entry.text.kind !== "info");
  const blocking = described.some((entry) => entry.text.kind === "blocking");
  const onlyRenewals = described.every((entry) => entry.text.kind === "renewal");

  const validate = async (input: ValidateInput): Promise<Validated> => {
    const result = await cartState.run(cartIntents.validate(input));
    return result.ok ? { ok: true, cart: result.cart } : result;
  };

  const accept = async () => {
    setWorking(true);
    setError(undefined);
    setNote(undefined);
    const outcome = await acceptReviewedChanges(cart, validate);
    setWorking(false);
    if (outcome.kind === "accepted") setNote("Your cart is up to date. You can pay now.");
    else if (outcome.kind === "review-again") setNote("Your cart changed again while you were looking. Please review it once more.");
    else setError(outcome.error);
  };

  const remove = async (itemId: string) => {
    setWorking(true);
    setError(undefined);
    const result = await cartState.setQuantity(itemId, 0);
    setWorking(false);
    if (!result.ok) setError(result.error);
  };

  const actionsFor = (change: RevalidationChange, kind: string) => {
    const item = change.cartItemId ? cart.items.find((candidate) => candidate.id === change.cartItemId) : undefined;
    const buttons: { label: string; hidden?: string; run: () => void }[] = [];
    if (item && kind === "blocking" && (hasAction(change, "RESELECT_MODIFIERS") || hasAction(change, "EDIT_ITEM"))) {
      const open = reselect?.(item.productId, item.id);
      if (open) buttons.push({ label: "Choose again", hidden: ` ${item.name}`, run: open });
    }
    if (item && hasAction(change, "REMOVE_ITEM")) buttons.push({ label: "Remove", hidden: ` ${item.name}`, run: () => void remove(item.id) });
    if (hasAction(change, "CHANGE_FULFILLMENT")) {
      const target: FulfilmentTarget = change.path.startsWith("deliveryInfo") ? "address" : "time";
      buttons.push({ label: target === "address" ? "Change address" : "Change time", run: () => onChangeFulfilment(target) });
    }
    if (hasAction(change, "START_NEW_CART")) buttons.push({ label: "Start a new cart", run: cartState.startOver });
    return buttons;
  };

  return (
    <section id={REVALIDATION_SECTION_ID} tabIndex={-1} aria-labelledby="revalidation-heading" className={styles.confirm} data-slot="revalidation" aria-busy={working}>
      <h3 id="revalidation-heading">Your cart changed since it was priced</h3>
      <p>
        {blocking
          ? "Some items cannot be ordered as they are. Remove or change them to continue."
          : onlyRenewals
            ? "Your quote ran out. Update it to see the current prices before paying."
            : "Review what changed, then accept to continue to payment."}
      </p>
      <ul className={styles.changes}>
        {described.map(({ change, text }, index) => (
          <li key={`${change.path}:${index}`} data-testid="revalidation-change" data-kind={text.kind}>
            <p>
              <strong>{text.subject}</strong> · {text.reason}
              {text.before !== null && text.after !== null ? (
                <>
                  : <span data-testid="change-before">was {text.before}</span>, <span data-testid="change-after">now {text.after}</span>
                </>
              ) : null}
            </p>
            <div className={styles.actions}>
              {actionsFor(change, text.kind).map((button) => (
                <button key={button.label} type="button" className={styles.linkButton} disabled={working} onClick={button.run}>
                  {button.label}
                  {button.hidden ? <span className={styles.visuallyHidden}>{button.hidden}</span> : null}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      {blocking ? null : (
        <button type="button" className={styles.primaryButton} disabled={working} onClick={() => void accept()}>
          {working ? "Updating…" : onlyRenewals ? "Update my cart" : "Accept changes"}
        </button>
      )}
      {note ? (
        <p role="status" data-testid="revalidation-note">
          {note}
        </p>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not update your cart." /> : null}
    </section>
  );
}
