"use client";

import { useState } from "react";
import type { StorefrontError } from "../lib/errors";
import { isZeroDecimal, methodLabels } from "../lib/format";
import type { Cart, FulfilmentMethod, Location } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

/**
 * Takeout, delivery, table-side or room service. The method is fixed when an ordering session
 * starts, so changing it on a cart with items means a new cart: the customer confirms first.
 */
export function FulfilmentPicker(props: { location: Location; method: FulfilmentMethod | undefined; cart: Cart | null; onSwitch: (method: FulfilmentMethod) => Promise<ActionResult | null> }) {
  const { location, method, cart, onSwitch } = props;
  const [pending, setPending] = useState<FulfilmentMethod | null>(null);
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<StorefrontError>();

  const commit = async (next: FulfilmentMethod) => {
    setSwitching(true);
    const result = await onSwitch(next);
    setSwitching(false);
    setPending(null);
    setError(result && !result.ok ? result.error : undefined);
  };

  const choose = (next: FulfilmentMethod) => {
    setError(undefined);
    if (next === method) return setPending(null);
    if (cart && cart.items.length > 0) return setPending(next);
    void commit(next);
  };

  return (
    <div className={styles.methods}>
      <fieldset disabled={switching}>
        <legend>How would you like your order?</legend>
        <div className={styles.segmented}>
          {location.fulfillmentMethods.map((option) => (
            <label key={option.method} className={styles.segment}>
              <input type="radio" name="fulfilment-method" value={option.method} checked={(pending ?? method) === option.method} onChange={() => choose(option.method)} />
              <span>
                {methodLabels[option.method]}
                {isZeroDecimal(option.feeFix) ? null : <small> · {option.feeFixFormatted} fee</small>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {pending && cart ? (
        <div className={styles.confirm} role="alert">
          <p>
            Switching to {methodLabels[pending]} starts a new cart. The {cart.totalQuantity} {cart.totalQuantity === 1 ? "item" : "items"} in your {methodLabels[cart.fulfilmentMethod].toLowerCase()} cart will not
            carry over.
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.primaryButton} disabled={switching} onClick={() => void commit(pending)}>
              {switching ? "Starting…" : `Start a new ${methodLabels[pending].toLowerCase()} cart`}
            </button>
            <button type="button" className={styles.secondaryButton} disabled={switching} onClick={() => setPending(null)}>
              Keep my {methodLabels[cart.fulfilmentMethod].toLowerCase()} cart
            </button>
          </div>
        </div>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not change how you order." /> : null}
    </div>
  );
}
