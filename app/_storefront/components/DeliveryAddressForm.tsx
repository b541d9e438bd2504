"use client";

import { useRef, useState, type FormEvent } from "react";
import { addressLimits, checkAddress, fieldsOf, type AddressField, type AddressFields } from "../lib/delivery-address";
import { deliveryCountries, demoAddressNear } from "../lib/demo-address";
import type { StorefrontError } from "../lib/errors";
import type { DeliveryAddressInput, Location } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

/**
 * The delivery address. There is no geocoder here, so the position is typed in (or filled by the
 * demo button); the courier prices the distance from it and may refuse it (out of its radius).
 */
export function DeliveryAddressForm(props: { location: Location; initial: DeliveryAddressInput | null; onSave: (address: DeliveryAddressInput) => Promise<ActionResult>; onCancel?: () => void }) {
  const { location, initial, onSave, onCancel } = props;
  const [fields, setFields] = useState<AddressFields>(() => fieldsOf(initial, location.address.country));
  const [problems, setProblems] = useState<Partial<Record<AddressField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<StorefrontError>();
  const formRef = useRef<HTMLFormElement>(null);
  const demo = demoAddressNear(location);

  const set = (name: AddressField, value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setProblems((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAddress(fields);
    if ("problems" in checked) {
      setProblems(checked.problems);
      const first = Object.keys(checked.problems)[0];
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    const result = await onSave(checked.address);
    setSaving(false);
    setError(result.ok ? undefined : result.error);
  };

  const field = (name: AddressField, label: string, options: { autoComplete?: string; inputMode?: "decimal"; optional?: boolean } = {}) => {
    const id = `delivery-${name}`;
    return (
      <label className={styles.field} htmlFor={id}>
        <span>
          {label}
          {options.optional ? <span className={styles.muted}> (optional)</span> : null}
        </span>
        <input
          id={id}
          name={name}
          value={fields[name]}
          maxLength={addressLimits[name]}
          autoComplete={options.autoComplete}
          inputMode={options.inputMode}
          required={!options.optional}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `${id}-problem` : undefined}
          onChange={(event) => set(name, event.target.value)}
        />
        {problems[name] ? (
          <span id={`${id}-problem`} className={styles.fieldError}>
            {problems[name]}
          </span>
        ) : null}
      </label>
    );
  };

  return (
    <form ref={formRef} className={styles.addressForm} onSubmit={(event) => void submit(event)} noValidate aria-label="Delivery address">
      {demo ? (
        <button type="button" className={styles.linkButton} onClick={() => {
            setFields(fieldsOf(demo, location.address.country));
            setProblems({});
            setError(undefined);
          }}>
          Use a demo address near the restaurant
        </button>
      ) : null}
      <fieldset className={styles.plainFieldset} disabled={saving}>
        <legend className={styles.visuallyHidden}>Delivery address</legend>
        <div className={styles.addressGrid}>
          {field("street", "Street and number", { autoComplete: "address-line1" })}
          {field("streetOptional", "Apartment, floor", { autoComplete: "address-line2", optional: true })}
          {field("city", "City", { autoComplete: "address-level2" })}
          {field("state", "State / region", { autoComplete: "address-level1" })}
          {field("zipCode", "ZIP / postal code", { autoComplete: "postal-code" })}
          <label className={styles.field} htmlFor="delivery-country">
            <span>Country</span>
            <select id="delivery-country" name="country" value={fields.country} onChange={(event) => set("country", event.target.value)} aria-invalid={problems.country ? true : undefined}>
              {deliveryCountries.map((country) => (
                <option key={country} value={country}>
                  {country}
                </option>
              ))}
            </select>
            {problems.country ? <span className={styles.fieldError}>{problems.country}</span> : null}
          </label>
        </div>
        <fieldset className={styles.coordinates} aria-describedby="delivery-coordinates-hint">
          <legend>Map position</legend>
          <p id="delivery-coordinates-hint" className={styles.muted}>
            The courier prices the distance from these coordinates (this demo has no address lookup).
          </p>
          <div className={styles.addressGrid}>
            {field("lat", "Latitude", { inputMode: "decimal" })}
            {field("lng", "Longitude", { inputMode: "decimal" })}
          </div>
        </fieldset>
        <div className={styles.actions}>
          <button type="submit" className={styles.secondaryButton}>
            {saving ? "Getting a courier quote…" : "Save address and get a quote"}
          </button>
          {onCancel ? (
            <button type="button" className={styles.linkButton} onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </fieldset>
      {error ? <ErrorNotice id="delivery-error" error={error} title="We could not use this address." /> : null}
    </form>
  );
}
