"use client";

import type { TipChoice } from "../lib/use-tip-choice";
import styles from "../storefront.module.css";
import { CustomAmountForm } from "./CustomAmountForm";

/** A tip's custom amount: its form while open, and the field's problem (which outlives the form). */
export function CustomTipPanel(props: { tip: Pick<TipChoice, "customOpen" | "amount" | "setAmount" | "submitCustom" | "problem" | "working">; id: string; label: string; submitLabel: string }) {
  const { tip, id } = props;
  const problemId = `${id}-problem`;
  return (
    <>
      {tip.customOpen ? (
        <CustomAmountForm
          id={`${id}-custom`}
          label={props.label}
          submitLabel={props.submitLabel}
          amount={tip.amount}
          onAmountChange={tip.setAmount}
          onSubmit={tip.submitCustom}
          problem={tip.problem}
          problemId={problemId}
          disabled={tip.working !== null}
        />
      ) : null}
      {tip.problem ? (
        <p id={problemId} className={styles.fieldError}>
          {tip.problem}
        </p>
      ) : null}
    </>
  );
}
