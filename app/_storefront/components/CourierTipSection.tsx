"use client";

import { useState, type FormEvent } from "react";
import type { StorefrontError } from "../lib/errors";
import { formatMoney, isZeroDecimal, MONEY_INPUT, sameDecimal } from "../lib/format";
import type { Cart } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { CustomAmountForm } from "./CustomAmountForm";
import { ErrorNotice } from "./ErrorNotice";

/** Fixed amounts in the cart's currency (the courier's tip is an amount, not a share of the order). */
const PRESETS = ["2", "3", "5"];

/** The courier's tip: none, a preset or a custom amount; the server checks the limit. */
export function CourierTipSection(props: { cart: Cart; onSet: (amount: string) => Promise<ActionResult> }) {
  const { cart, onSet } = props;
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<StorefrontError>();
  const [customOpen, setCustomOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string>();

  const current = cart.courierTipTotal ?? "0";
  const activePreset = PRESETS.find((preset) => sameDecimal(preset, current));
  const customActive = !activePreset && !isZeroDecimal(current);

  const set = async (id: string, value: string) => {
    setWorking(id);
    const result = await onSet(value);
    setWorking(null);
    setError(result.ok ? undefined : result.error);
    return result.ok;
  };

  const submitCustom = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = amount.trim();
    if (!MONEY_INPUT.test(trimmed)) {
      setProblem("Enter an amount such as 4 or 4.50.");
      return;
    }
    setProblem(undefined);
    if (await set("custom", trimmed)) setCustomOpen(false);
  };

  return (
    <div className={styles.subSection}>
      <h4 id="courier-tip-heading">Tip for your courier</h4>
      <div className={styles.chips} role="group" aria-labelledby="courier-tip-heading">
        <button type="button" aria-pressed={isZeroDecimal(current)} disabled={working !== null} onClick={() => void set("none", "0")}>
          No tip
        </button>
        {PRESETS.map((preset) => (
          <button key={preset} type="button" aria-pressed={activePreset === preset} disabled={working !== null} onClick={() => void set(preset, preset)}>
            {formatMoney(preset, cart.currency)}
          </button>
        ))}
        <button type="button" aria-pressed={customActive} aria-expanded={customOpen} aria-controls="courier-tip-custom" disabled={working !== null} onClick={() => setCustomOpen((open) => !open)}>
          Custom
        </button>
      </div>
      {working ? <p role="status">Updating courier tip…</p> : null}
      {customOpen ? (
        <CustomAmountForm
          id="courier-tip-custom"
          label={`Courier tip (${cart.currency.toUpperCase()})`}
          submitLabel="Set courier tip"
          amount={amount}
          onAmountChange={setAmount}
          onSubmit={submitCustom}
          problem={problem}
          problemId="courier-tip-problem"
          disabled={working !== null}
        />
      ) : null}
      {problem ? (
        <p id="courier-tip-problem" className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not set the courier tip." /> : null}
    </div>
  );
}
