import styles from "../storefront.module.css";

/** − value + with labelled buttons; the value is announced when it changes. */
export function Stepper(props: { label: string; value: number; min: number; max: number; onChange: (value: number) => void; itemName: string; canIncrease?: boolean; compact?: boolean; disabled?: boolean }) {
  const { label, value, min, max, onChange, itemName, canIncrease = true, compact = false, disabled = false } = props;
  return (
    <div className={compact ? styles.stepperCompact : styles.stepper} role="group" aria-label={label}>
      <button type="button" aria-label={`Decrease ${itemName}`} disabled={disabled || value <= min} onClick={() => onChange(value - 1)}>
        −
      </button>
      <output aria-live="polite" aria-label={`${label}: ${value}`}>
        {value}
      </output>
      <button type="button" aria-label={`Increase ${itemName}`} disabled={disabled || value >= max || !canIncrease} onClick={() => onChange(value + 1)}>
        +
      </button>
    </div>
  );
}
