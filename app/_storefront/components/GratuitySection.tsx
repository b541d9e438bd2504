"use client";

import { useState, type FormEvent } from "react";
import type { StorefrontError } from "../lib/errors";
import { decimalToMinor, formatMoney, isZeroDecimal, minorToDecimal, rateOfMinor } from "../lib/format";
import type { Cart, GratuityChoice, GratuityPolicy } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import type { Query } from "../lib/use-query";
import styles from "../storefront.module.css";
import { CustomAmountForm } from "./CustomAmountForm";
import { ErrorNotice } from "./ErrorNotice";

/** "0.180" and "0.18" name the same rate: compare decimal strings without trailing zeros. */
function sameRate(a: string, b: string): boolean {
  const strip = (rate: string) => (rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate);
  return strip(a) === strip(b);
}

/** Gratuity presets from the location's policy (gratuity procedure), none, or a custom amount. */
export function GratuitySection(props: { cart: Cart; policy: Query<GratuityPolicy>; onSet: (choice: GratuityChoice) => Promise<ActionResult> }) {
  const { cart, policy, onSet } = props;
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<StorefrontError>();
  const [customOpen, setCustomOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string>();

  const presets = policy.data?.presets ?? [];
  const activePreset = presets.find((preset) => sameRate(preset.rate, cart.fees.tipRate));
  const customActive = !activePreset && isZeroDecimal(cart.fees.tipRate) && !isZeroDecimal(cart.waiterTipTotal);
  const noneActive = !activePreset && !customActive;

  const set = async (id: string, choice: GratuityChoice) => {
    setWorking(id);
    const result = await onSet(choice);
    setWorking(null);
    setError(result.ok ? undefined : result.error);
    return result.ok;
  };

  const submitCustom = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = amount.trim();
    if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) {
      setProblem("Enter an amount such as 5 or 4.50.");
      return;
    }
    setProblem(undefined);
    if (await set("custom", { amount: trimmed })) setCustomOpen(false);
  };

  return (
    <section aria-labelledby="tip-heading" className={styles.cartSection}>
      <h3 id="tip-heading">Tip for the team</h3>
      {policy.loading && !policy.data ? <p role="status">Loading tip options…</p> : null}
      {policy.error ? <ErrorNotice error={policy.error} title="Tip options are unavailable." onRetry={policy.reload} /> : null}
      {policy.data ? (
        <>
          <div className={styles.chips} role="group" aria-labelledby="tip-heading">
            <button type="button" aria-pressed={noneActive} disabled={working !== null} onClick={() => void set("none", { rate: "0" })}>
              No tip
            </button>
            {presets.map((preset) => (
              <button key={preset.rate} type="button" aria-pressed={activePreset?.rate === preset.rate} disabled={working !== null} onClick={() => void set(preset.rate, { rate: preset.rate })}>
                {preset.label} · {formatMoney(minorToDecimal(rateOfMinor(decimalToMinor(cart.subTotalWithoutDiscount), preset.rate)), cart.currency)}
              </button>
            ))}
            {policy.data.allowCustomAmount ? (
              <button type="button" aria-pressed={customActive} aria-expanded={customOpen} aria-controls="tip-custom" disabled={working !== null} onClick={() => setCustomOpen((open) => !open)}>
                Custom
              </button>
            ) : null}
          </div>
          {working ? <p role="status">Updating tip…</p> : null}
          {customOpen ? (
            <CustomAmountForm
              id="tip-custom"
              label={`Tip amount (${cart.currency.toUpperCase()})`}
              submitLabel="Set tip"
              amount={amount}
              onAmountChange={setAmount}
              onSubmit={submitCustom}
              problem={problem}
              problemId="tip-problem"
              disabled={working !== null}
            />
          ) : null}
          {problem ? (
            <p id="tip-problem" className={styles.fieldError}>
              {problem}
            </p>
          ) : null}
        </>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not set the tip." /> : null}
    </section>
  );
}
