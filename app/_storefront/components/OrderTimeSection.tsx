"use client";

import { useEffect, useRef, useState } from "react";
import { catalogApi } from "../lib/api";
import type { StorefrontError } from "../lib/errors";
import { addDays, formatDate, formatTime, methodLabels } from "../lib/format";
import type { Cart, OrderTimeChoice } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import { useQuery } from "../lib/use-query";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";

const DAYS_AHEAD = 7;

export const ORDER_TIME_SECTION_ID = "order-time-section";

export function describeOrderTime(cart: Cart): string {
  if (cart.pickupType === "ASAP" || !cart.orderDate) return "As soon as possible";
  return `${formatDate(cart.orderDate)} at ${formatTime(cart.orderTime)}`;
}

/**
 * ASAP, or one of the bookable times the time-intervals procedure lists for the cart's fulfilment
 * method on a chosen day (the server accepts only those).
 */
export function OrderTimeSection(props: { cart: Cart; onSubmit: (choice: OrderTimeChoice) => Promise<ActionResult> }) {
  const { cart, onSubmit } = props;
  const [mode, setMode] = useState<"ASAP" | "LATER">(cart.pickupType);
  const [date, setDate] = useState<string | undefined>(cart.pickupType === "LATER" && cart.orderDate ? cart.orderDate : undefined);
  const [time, setTime] = useState<string>(cart.pickupType === "LATER" ? cart.orderTime : "");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<StorefrontError>();
  const [saved, setSaved] = useState(false);

  const today = useQuery(`intervals:${cart.locationId}:today`, () => catalogApi.timeIntervals(cart.locationId));
  const todayDate = today.data?.date;
  const selectedDate = date ?? todayDate;
  const other = useQuery(mode === "LATER" && selectedDate && selectedDate !== todayDate ? `intervals:${cart.locationId}:${selectedDate}` : null, () =>
    catalogApi.timeIntervals(cart.locationId, selectedDate),
  );
  const intervals = selectedDate === todayDate ? today : other;
  const forDay = intervals.data?.date === selectedDate ? intervals.data : undefined;
  const method = forDay?.methods.find((entry) => entry.fulfillmentMethod === cart.fulfilmentMethod);
  const times = method?.times ?? [];
  const asapAvailable = today.data?.methods.find((entry) => entry.fulfillmentMethod === cart.fulfilmentMethod)?.asapAvailable ?? true;
  const chosenTime = times.some((slot) => slot.time === time) ? time : (times[0]?.time ?? "");

  // A choice is saved as soon as it is made: there is no unsaved time to forget before paying.
  const choice: OrderTimeChoice | undefined =
    mode === "ASAP" ? { pickupType: "ASAP" } : selectedDate && chosenTime ? { pickupType: "LATER", orderDate: selectedDate, orderTime: chosenTime } : undefined;
  const keyOf = (value: OrderTimeChoice) => (value.pickupType === "ASAP" ? "ASAP" : `${value.orderDate} ${value.orderTime}`);
  const choiceKey = choice ? keyOf(choice) : undefined;
  const savedKey = cart.pickupType === "ASAP" || !cart.orderDate ? "ASAP" : `${cart.orderDate} ${cart.orderTime}`;
  // Edits are counted, not flagged: an edit made while an earlier one is being sent (or before the
  // effect that sends it has run) is sent after it, never folded into it and lost.
  const [edits, setEdits] = useState(0);
  const sentEdit = useRef(0);

  useEffect(() => {
    if (edits === sentEdit.current || saving || !choice || choiceKey === savedKey) return;
    sentEdit.current = edits;
    setSaved(false);
    setSaving(true);
    void onSubmit(choice).then((result) => {
      setSaving(false);
      setError(result.ok ? undefined : result.error);
      setSaved(result.ok);
    });
  }, [edits, saving, choice, choiceKey, savedKey, onSubmit]);

  const change = (apply: () => void) => {
    apply();
    setEdits((count) => count + 1);
  };

  return (
    <section aria-labelledby="when-heading" className={styles.cartSection} id={ORDER_TIME_SECTION_ID} tabIndex={-1}>
      <h3 id="when-heading">When</h3>
      <p data-testid="order-time">
        {methodLabels[cart.fulfilmentMethod]}: <strong>{describeOrderTime(cart)}</strong>
      </p>
      <form onSubmit={(event) => event.preventDefault()} noValidate>
        <fieldset className={styles.plainFieldset} disabled={saving}>
          <legend className={styles.visuallyHidden}>Order time</legend>
          <label className={styles.inlineOption}>
            <input type="radio" name="order-time" checked={mode === "ASAP"} disabled={!asapAvailable} onChange={() => change(() => setMode("ASAP"))} />
            As soon as possible{asapAvailable ? "" : " (not available now)"}
          </label>
          <label className={styles.inlineOption}>
            <input type="radio" name="order-time" checked={mode === "LATER"} onChange={() => change(() => setMode("LATER"))} />
            Schedule for later
          </label>
          {mode === "LATER" ? (
            <div className={styles.inlineFields}>
              {today.error ? <ErrorNotice error={today.error} title="Could not load times." onRetry={today.reload} /> : null}
              {todayDate ? (
                <label className={styles.field}>
                  <span>Day</span>
                  <select value={selectedDate} onChange={(event) => change(() => setDate(event.target.value))}>
                    {Array.from({ length: DAYS_AHEAD }, (_, offset) => addDays(todayDate, offset)).map((day, offset) => (
                      <option key={day} value={day}>
                        {offset === 0 ? `Today (${formatDate(day)})` : offset === 1 ? `Tomorrow (${formatDate(day)})` : formatDate(day)}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <label className={styles.field}>
                <span>Time</span>
                <select value={chosenTime} onChange={(event) => change(() => setTime(event.target.value))} disabled={times.length === 0} aria-describedby="time-status">
                  {times.map((slot) => (
                    <option key={slot.time} value={slot.time}>
                      {formatTime(slot.time)}
                    </option>
                  ))}
                </select>
              </label>
              <p id="time-status" className={styles.muted} role="status">
                {intervals.loading ? "Loading times…" : forDay && times.length === 0 ? "No times left on this day. Choose another day." : ""}
              </p>
              {other.error ? <ErrorNotice error={other.error} title="Could not load times." onRetry={other.reload} /> : null}
            </div>
          ) : null}
          <p role="status" className={styles.muted}>
            {saving ? "Saving…" : saved ? "Saved." : ""}
          </p>
        </fieldset>
      </form>
      {error ? <ErrorNotice error={error} title="Could not change the time." /> : null}
    </section>
  );
}
