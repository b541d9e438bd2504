"use client";

import { useState } from "react";
import type { StorefrontError } from "../lib/errors";
import type { Cart } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";
import { ImageTile } from "./ImageTile";
import { Stepper } from "./Stepper";

const MAX_QUANTITY = 99;

/** The cart's lines as the server priced them: choices, quantity controls, line total, remove. */
export function CartLines(props: { cart: Cart; onQuantity: (itemId: string, quantity: number) => Promise<ActionResult> }) {
  const { cart, onQuantity } = props;
  const [pendingLine, setPendingLine] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, StorefrontError>>({});

  const change = async (itemId: string, quantity: number) => {
    setPendingLine(itemId);
    const result = await onQuantity(itemId, quantity);
    setPendingLine(null);
    setErrors((previous) => {
      const next = { ...previous };
      if (result.ok) delete next[itemId];
      else next[itemId] = result.error;
      return next;
    });
  };

  return (
    <ul className={styles.lines} aria-label="Items in your cart">
      {cart.items.map((item) => (
        <li key={item.id} className={styles.line} data-testid="cart-line" aria-busy={pendingLine === item.id}>
          <ImageTile id={item.productId} name={item.name} imageUrl={item.imageUrl} />
          <div className={styles.lineBody}>
            <p className={styles.lineName}>{item.name}</p>
            {item.selections.length > 0 ? (
              <ul className={styles.selections}>
                {item.selections.map((selection) => (
                  <li key={`${selection.modifierGroupId}/${selection.optionId}`}>
                    {selection.modifierGroupName}: {selection.optionName}
                    {selection.quantity > 1 ? ` ×${selection.quantity}` : ""}
                  </li>
                ))}
              </ul>
            ) : null}
            {item.specialInstructions ? <p className={styles.muted}>Note: {item.specialInstructions}</p> : null}
            <div className={styles.lineControls}>
              <Stepper
                label={`Quantity of ${item.name}`}
                value={item.quantity}
                min={1}
                max={MAX_QUANTITY}
                itemName={`quantity of ${item.name}`}
                disabled={pendingLine === item.id}
                onChange={(quantity) => void change(item.id, quantity)}
                compact
              />
              <button type="button" className={styles.linkButton} disabled={pendingLine === item.id} onClick={() => void change(item.id, 0)}>
                Remove<span className={styles.visuallyHidden}> {item.name}</span>
              </button>
            </div>
            {errors[item.id] ? <ErrorNotice error={errors[item.id] as StorefrontError} title="Could not update this item." /> : null}
          </div>
          <p className={styles.lineTotal}>{item.totalFormatted}</p>
        </li>
      ))}
    </ul>
  );
}
