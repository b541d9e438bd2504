"use client";

import type { FormEvent } from "react";
import styles from "../storefront.module.css";

/**
 * The "custom amount" form shared by the gratuity and courier-tip sections: a decimal input in the
 * cart's currency, a submit button, and the field's problem message wired for screen readers.
 */
export function CustomAmountForm(props: {
  id: string;
  label: string;
  submitLabel: string;
  amount: string;
  onAmountChange: (value: string) => void;
  onSubmit: (event: FormEvent) => Promise<void>;
  problem: string | undefined;
  /** Id of the element, outside the form, that shows `problem`. */
  problemId: string;
  disabled: boolean;
}) {
  return (
    <form id={props.id} className={styles.inlineForm} onSubmit={(event) => void props.onSubmit(event)} noValidate>
      <label className={styles.field}>
        <span>{props.label}</span>
        <input
          inputMode="decimal"
          value={props.amount}
          onChange={(event) => props.onAmountChange(event.target.value)}
          aria-invalid={props.problem ? true : undefined}
          aria-describedby={props.problem ? props.problemId : undefined}
        />
      </label>
      <button type="submit" className={styles.secondaryButton} disabled={props.disabled}>
        {props.submitLabel}
      </button>
    </form>
  );
}
