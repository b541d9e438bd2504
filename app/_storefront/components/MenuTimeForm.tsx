"use client";

import { useState, type FormEvent } from "react";
import styles from "../storefront.module.css";

export type MenuMoment = { orderDate: string; orderTime: string };

/** Which moment's menu to show: now, or a chosen local date and time (menus procedure's orderDate/orderTime). */
export function MenuTimeForm(props: { moment: MenuMoment | null; defaults: MenuMoment | undefined; onChange: (moment: MenuMoment | null) => void }) {
  const { moment, defaults, onChange } = props;
  const [later, setLater] = useState(moment !== null);
  const [date, setDate] = useState(moment?.orderDate ?? "");
  const [time, setTime] = useState(moment?.orderTime ?? "");
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const orderDate = date || defaults?.orderDate || "";
    const orderTime = time || defaults?.orderTime || "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(orderDate) || !/^\d{2}:\d{2}$/.test(orderTime)) {
      setProblem("Choose a date and a time.");
      return;
    }
    setProblem(undefined);
    onChange({ orderDate, orderTime });
  };

  return (
    <form className={styles.menuTime} onSubmit={submit} noValidate>
      <fieldset>
        <legend>Show the menu for</legend>
        <label className={styles.inlineOption}>
          <input
            type="radio"
            name="menu-moment"
            checked={!later}
            onChange={() => {
              setLater(false);
              onChange(null);
            }}
          />
          Now
        </label>
        <label className={styles.inlineOption}>
          <input
            type="radio"
            name="menu-moment"
            checked={later}
            onChange={() => {
              setLater(true);
              if (!date && defaults) setDate(defaults.orderDate);
              if (!time && defaults) setTime(defaults.orderTime);
            }}
          />
          Another time
        </label>
        {later ? (
          <div className={styles.inlineFields}>
            <label className={styles.field}>
              <span>Date</span>
              <input type="date" value={date} min={defaults?.orderDate} onChange={(event) => setDate(event.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? "menu-time-problem" : undefined} />
            </label>
            <label className={styles.field}>
              <span>Time</span>
              <input type="time" value={time} step={900} onChange={(event) => setTime(event.target.value)} aria-invalid={problem ? true : undefined} aria-describedby={problem ? "menu-time-problem" : undefined} />
            </label>
            <button type="submit" className={styles.secondaryButton}>
              Show menu
            </button>
          </div>
        ) : null}
        {problem ? (
          <p id="menu-time-problem" className={styles.fieldError}>
            {problem}
          </p>
        ) : null}
      </fieldset>
    </form>
  );
}
