"use client";

import { useState, type FormEvent } from "react";
import type { StorefrontError } from "../lib/errors";
import type { Cart } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

export function DiscountSection(props: { cart: Cart; onApply: (code: string) => Promise<ActionResult>; onRemove: () => Promise<ActionResult> }) {
  const { cart, onApply, onRemove } = props;
  const [code, setCode] = useState("");
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<StorefrontError>();
  const [problem, setProblem] = useState<string>();

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setProblem("Enter a discount code.");
      return;
    }
    setProblem(undefined);
    setWorking(true);
    const result = await onApply(trimmed);
    setWorking(false);
    if (result.ok) {
      setCode("");
      setError(undefined);
    } else {
      setError(result.error);
    }
  };

  const remove = async () => {
    setWorking(true);
    const result = await onRemove();
    setWorking(false);
    setError(result.ok ? undefined : result.error);
  };

  return (
    <section aria-labelledby="discount-heading" className={styles.cartSection}>
      <h3 id="discount-heading">Discount</h3>
      {cart.discountCode ? (
        <div className={styles.inlineRow}>
          <p data-testid="applied-discount">
            Code <strong>{cart.discountCode}</strong> applied
          </p>
          <button type="button" className={styles.linkButton} onClick={() => void remove()} disabled={working}>
            {working ? "Removing…" : "Remove code"}
          </button>
        </div>
      ) : (
        <form className={styles.inlineForm} onSubmit={(event) => void apply(event)} noValidate>
          <label className={styles.field}>
            <span>Discount code</span>
            <input
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoCapitalize="characters"
              autoComplete="off"
              maxLength={128}
              aria-invalid={problem || error ? true : undefined}
              aria-describedby={problem ? "discount-problem" : error ? "discount-error" : undefined}
            />
          </label>
          <button type="submit" className={styles.secondaryButton} disabled={working}>
            {working ? "Applying…" : "Apply"}
          </button>
        </form>
      )}
      {problem ? (
        <p id="discount-problem" className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      {error ? <ErrorNotice id="discount-error" error={error} /> : null}
    </section>
  );
}
