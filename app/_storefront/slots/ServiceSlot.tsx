"use client";

import { useState, type FormEvent } from "react";
import { cartIntents } from "../lib/api";
import type { StorefrontError } from "../lib/errors";
import { methodLabels } from "../lib/format";
import type { Cart, ServiceDetailsInput } from "../lib/types";
import type { CartState } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "../components/ErrorNotice";

/** The server's limits (PUT .../service-details): a table or room 1-32 characters, a last name 1-64. */
const LIMITS = { tableNumber: 32, roomNumber: 32, lastName: 64 } as const;
type Field = keyof typeof LIMITS;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Table-side and room-service carts: where the order is served. Checkout refuses these carts until
 * it is given (SERVICE_DETAILS_MISSING), so the form shows until then.
 */
export function ServiceSlot(props: { cart: Cart; cartState: CartState }) {
  const { cart, cartState } = props;
  const table = cart.fulfilmentMethod === "table_side";
  const fields: Field[] = table ? ["tableNumber"] : ["roomNumber", "lastName"];
  const saved: Record<Field, string> = {
    tableNumber: text(cart.tableServiceInfo?.tableNumber),
    roomNumber: text(cart.roomServiceInfo?.roomNumber),
    lastName: text(cart.roomServiceInfo?.lastName),
  };
  const complete = fields.every((field) => saved[field] !== "");
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<Field, string>>(saved);
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<StorefrontError>();
  const open = cart.status === "OPEN";
  const labels: Record<Field, string> = { tableNumber: "Table number", roomNumber: "Room number", lastName: "Last name (as on the booking)" };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(fields.map((field) => [field, values[field].trim()])) as Record<Field, string>;
    if (fields.some((field) => trimmed[field] === "")) {
      setProblem(table ? "Enter your table number." : "Enter your room number and last name.");
      return;
    }
    setProblem(undefined);
    setSaving(true);
    const details: ServiceDetailsInput = table ? { tableServiceInfo: { tableNumber: trimmed.tableNumber } } : { roomServiceInfo: { roomNumber: trimmed.roomNumber, lastName: trimmed.lastName } };
    const result = await cartState.run(cartIntents.serviceDetails(details));
    setSaving(false);
    setError(result.ok ? undefined : result.error);
    if (result.ok) setEditing(false);
  };

  return (
    <section aria-labelledby="service-heading" className={styles.cartSection} data-slot="service">
      <h3 id="service-heading">{methodLabels[cart.fulfilmentMethod]}: {table ? "your table" : "your room"}</h3>
      {complete && !editing ? (
        <div className={styles.inlineRow}>
          <p data-testid="service-details">{table ? `Table ${saved.tableNumber}` : `Room ${saved.roomNumber}, ${saved.lastName}`}</p>
          {open ? (
            <button type="button" className={styles.linkButton} onClick={() => setEditing(true)}>
              Change
            </button>
          ) : null}
        </div>
      ) : open ? (
        <form onSubmit={(event) => void submit(event)} noValidate aria-label={table ? "Table number" : "Room and name"}>
          <fieldset className={styles.plainFieldset} disabled={saving}>
            <legend className={styles.visuallyHidden}>{table ? "Table number" : "Room and name"}</legend>
            {fields.map((field) => (
              <label key={field} className={styles.field} htmlFor={`service-${field}`}>
                <span>{labels[field]}</span>
                <input id={`service-${field}`} name={field} value={values[field]} maxLength={LIMITS[field]} required onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))} />
              </label>
            ))}
            {problem ? <p className={styles.fieldError}>{problem}</p> : null}
            <div className={styles.actions}>
              <button type="submit" className={styles.secondaryButton}>
                {saving ? "Saving…" : "Save"}
              </button>
            </div>
          </fieldset>
        </form>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not save where to serve your order." /> : null}
    </section>
  );
}
