"use client";

import { decimalToMinor, formatMoney, isZeroDecimal, minorToDecimal, rateOfMinor } from "../lib/format";
import type { Cart, GratuityChoice, GratuityPolicy } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import type { Query } from "../lib/use-query";
import { useTipChoice } from "../lib/use-tip-choice";
import styles from "../storefront.module.css";
import { CustomTipPanel } from "./CustomTipPanel";
import { ErrorNotice } from "./ErrorNotice";

/** "0.180" and "0.18" name the same rate: compare decimal strings without trailing zeros. */
function sameRate(a: string, b: string): boolean {
  const strip = (rate: string) => (rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate);
  return strip(a) === strip(b);
}

/** Gratuity presets from the location's policy (gratuity procedure), none, or a custom amount. */
export function GratuitySection(props: { cart: Cart; policy: Query<GratuityPolicy>; onSet: (choice: GratuityChoice) => Promise<ActionResult> }) {
  const { cart, policy, onSet } = props;
  const tip = useTipChoice<GratuityChoice>({ onSet, customChoice: (amount) => ({ amount }), example: "5" });
  const { working, set } = tip;

  const presets = policy.data?.presets ?? [];
  const activePreset = presets.find((preset) => sameRate(preset.rate, cart.fees.tipRate));
  const customActive = !activePreset && isZeroDecimal(cart.fees.tipRate) && !isZeroDecimal(cart.waiterTipTotal);
  const noneActive = !activePreset && !customActive;

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
              <button type="button" aria-pressed={customActive} aria-expanded={tip.customOpen} aria-controls="tip-custom" disabled={working !== null} onClick={tip.toggleCustom}>
                Custom
              </button>
            ) : null}
          </div>
          {working ? <p role="status">Updating tip…</p> : null}
          <CustomTipPanel tip={tip} id="tip" label={`Tip amount (${cart.currency.toUpperCase()})`} submitLabel="Set tip" />
        </>
      ) : null}
      {tip.error ? <ErrorNotice error={tip.error} title="Could not set the tip." /> : null}
    </section>
  );
}
