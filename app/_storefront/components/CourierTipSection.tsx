"use client";

import { formatMoney, isZeroDecimal, sameDecimal } from "../lib/format";
import type { Cart } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import { useTipChoice } from "../lib/use-tip-choice";
import styles from "../storefront.module.css";
import { CustomTipPanel } from "./CustomTipPanel";
import { ErrorNotice } from "./ErrorNotice";

/** Fixed amounts in the cart's currency (the courier's tip is an amount, not a share of the order). */
const PRESETS = ["2", "3", "5"];

/** The courier's tip: none, a preset or a custom amount; the server checks the limit. */
export function CourierTipSection(props: { cart: Cart; onSet: (amount: string) => Promise<ActionResult> }) {
  const { cart } = props;
  const tip = useTipChoice({ onSet: props.onSet, customChoice: (amount) => amount, example: "4" });
  const { working, set } = tip;

  const current = cart.courierTipTotal ?? "0";
  const activePreset = PRESETS.find((preset) => sameDecimal(preset, current));
  const customActive = !activePreset && !isZeroDecimal(current);

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
        <button type="button" aria-pressed={customActive} aria-expanded={tip.customOpen} aria-controls="courier-tip-custom" disabled={working !== null} onClick={tip.toggleCustom}>
          Custom
        </button>
      </div>
      {working ? <p role="status">Updating courier tip…</p> : null}
      <CustomTipPanel tip={tip} id="courier-tip" label={`Courier tip (${cart.currency.toUpperCase()})`} submitLabel="Set courier tip" />
      {tip.error ? <ErrorNotice error={tip.error} title="Could not set the courier tip." /> : null}
    </div>
  );
}
