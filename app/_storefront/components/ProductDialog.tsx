"use client";

import { useRef, useState, type FormEvent } from "react";
import type { NewItem } from "../lib/api";
import type { StorefrontError } from "../lib/errors";
import { formatMoney, isZeroDecimal, minorToDecimal } from "../lib/format";
import { canAdd, choose, describeRule, groupOfServerIssue, isSingleChoice, linePriceMinor, problems, quantityOf, toSelections, type Choices } from "../lib/modifier-selection";
import type { ModifierGroup, ModifierOption, Product } from "../lib/types";
import type { ActionResult } from "../lib/use-cart";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";
import { ImageTile } from "./ImageTile";
import { Modal } from "./Modal";
import { Stepper } from "./Stepper";

const MAX_QUANTITY = 99;
const TITLE_ID = "product-dialog-title";

export function ProductDialog(props: { product: Product | null; currency: string; onClose: () => void; onAdd: (item: NewItem) => Promise<ActionResult>; onAdded: (product: Product, quantity: number) => void }) {
  const { product, currency, onClose, onAdd, onAdded } = props;
  return (
    <Modal open={product !== null} onClose={onClose} labelledBy={TITLE_ID}>
      {product ? <ProductForm key={product.id} product={product} currency={currency} onClose={onClose} onAdd={onAdd} onAdded={onAdded} /> : null}
    </Modal>
  );
}

function optionPrice(option: ModifierOption): string {
  if (!option.available) return "Unavailable";
  return isZeroDecimal(option.price) ? "" : `+${option.priceFormatted}`;
}

function ProductForm(props: { product: Product; currency: string; onClose: () => void; onAdd: (item: NewItem) => Promise<ActionResult>; onAdded: (product: Product, quantity: number) => void }) {
  const { product, currency, onClose, onAdd, onAdded } = props;
  const [choices, setChoices] = useState<Choices>({});
  const [quantity, setQuantity] = useState(1);
  const [instructions, setInstructions] = useState("");
  const [checked, setChecked] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<StorefrontError>();
  const [serverGroupErrors, setServerGroupErrors] = useState<Record<string, string>>({});
  const groupRefs = useRef(new Map<string, HTMLFieldSetElement>());
  const errorRef = useRef<HTMLDivElement>(null);

  const clientProblems = Object.fromEntries(problems(choices, product).map((problem) => [problem.groupId, problem.message]));

  const update = (next: Choices) => {
    setChoices(next);
    setServerError(undefined);
    setServerGroupErrors({});
  };

  const focusGroup = (groupId: string) => {
    groupRefs.current.get(groupId)?.querySelector<HTMLElement>("input:not([disabled]), button:not([disabled])")?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const first = product.modifierGroups.find((group) => clientProblems[group.id]);
    if (first) {
      focusGroup(first.id);
      return;
    }
    const selections = toSelections(choices, product);
    const note = instructions.trim();
    setSubmitting(true);
    const result = await onAdd({ productId: product.id, quantity, selections, ...(note ? { specialInstructions: note } : {}) });
    setSubmitting(false);
    if (result.ok) {
      onAdded(product, quantity);
      onClose();
      return;
    }
    setServerError(result.error);
    const byGroup: Record<string, string> = {};
    for (const issue of result.error.fields) {
      const groupId = groupOfServerIssue(issue, selections, product);
      if (groupId) byGroup[groupId] = issue.message;
    }
    setServerGroupErrors(byGroup);
    // The alert is announced by its role; focus moves there so keyboard users land on it too.
    requestAnimationFrame(() => errorRef.current?.focus());
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className={styles.productForm}>
      <div className={styles.dialogHeader}>
        <ImageTile id={product.id} name={product.name} imageUrl={product.imageUrl} size="large" />
        <div>
          <h2 id={TITLE_ID}>{product.name}</h2>
          <p className={styles.muted}>{product.description}</p>
          <p className={styles.price}>{product.priceFormatted}</p>
        </div>
        <button type="button" className={styles.closeButton} onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>

      <div className={styles.dialogScroll}>
        {product.modifierGroups.map((group) => (
          <ModifierGroupField
            key={group.id}
            group={group}
            choices={choices}
            onChange={update}
            problem={serverGroupErrors[group.id] ?? (checked ? clientProblems[group.id] : undefined)}
            fieldsetRef={(element) => {
              if (element) groupRefs.current.set(group.id, element);
              else groupRefs.current.delete(group.id);
            }}
          />
        ))}

        <label className={styles.field}>
          <span>Special instructions (optional)</span>
          <textarea value={instructions} maxLength={500} rows={2} onChange={(event) => setInstructions(event.target.value)} />
        </label>

        {serverError ? (
          <div ref={errorRef} tabIndex={-1}>
            <ErrorNotice error={serverError} title="Could not add this item." />
          </div>
        ) : null}
      </div>

      <footer className={styles.dialogFooter}>
        <Stepper label="Quantity" value={quantity} min={1} max={MAX_QUANTITY} onChange={setQuantity} itemName="quantity" />
        <button type="submit" className={styles.primaryButton} disabled={submitting} aria-describedby={checked && Object.keys(clientProblems).length > 0 ? "product-dialog-problems" : undefined}>
          {submitting ? "Adding…" : `Add to cart · ${formatMoney(minorToDecimal(linePriceMinor(product, choices, quantity)), currency)}`}
        </button>
        {checked && Object.keys(clientProblems).length > 0 ? (
          <p id="product-dialog-problems" className={styles.fieldError}>
            Make the required choices above first.
          </p>
        ) : null}
      </footer>
    </form>
  );
}

function ModifierGroupField(props: { group: ModifierGroup; choices: Choices; onChange: (next: Choices) => void; problem: string | undefined; fieldsetRef: (element: HTMLFieldSetElement | null) => void }) {
  const { group, choices, onChange, problem, fieldsetRef } = props;
  const ruleId = `${group.id}-rule`;
  const errorId = `${group.id}-error`;
  const describedBy = problem ? `${ruleId} ${errorId}` : ruleId;
  const single = isSingleChoice(group);

  return (
    <fieldset ref={fieldsetRef} className={styles.group} aria-describedby={describedBy} data-invalid={problem ? "true" : undefined}>
      <legend>
        {group.name} <span id={ruleId} className={styles.rule}>{describeRule(group)}</span>
      </legend>
      {problem ? (
        <p id={errorId} className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      <div className={styles.options}>
        {single && group.minSelections === 0 ? (
          <label className={styles.option}>
            <input type="radio" name={group.id} checked={Object.keys(choices[group.id] ?? {}).length === 0} onChange={() => onChange({ ...choices, [group.id]: {} })} />
            <span>None</span>
          </label>
        ) : null}
        {group.options.map((option) => {
          const quantity = quantityOf(choices, group.id, option.id);
          if (single) {
            return (
              <label key={option.id} className={styles.option} data-disabled={!option.available || undefined}>
                <input type="radio" name={group.id} value={option.id} checked={quantity > 0} disabled={!option.available} aria-invalid={problem ? true : undefined} onChange={() => onChange(choose(choices, group, option.id, 1))} />
                <span>{option.name}</span>
                <span className={styles.optionPrice}>{optionPrice(option)}</span>
              </label>
            );
          }
          if (group.maxPerOption === 1) {
            return (
              <label key={option.id} className={styles.option} data-disabled={(!option.available || (quantity === 0 && !canAdd(choices, group, option.id))) || undefined}>
                <input
                  type="checkbox"
                  checked={quantity > 0}
                  disabled={!option.available || (quantity === 0 && !canAdd(choices, group, option.id))}
                  onChange={(event) => onChange(choose(choices, group, option.id, event.target.checked ? 1 : 0))}
                />
                <span>{option.name}</span>
                <span className={styles.optionPrice}>{optionPrice(option)}</span>
              </label>
            );
          }
          return (
            <div key={option.id} className={styles.option} data-disabled={!option.available || undefined}>
              <span>{option.name}</span>
              <span className={styles.optionPrice}>{optionPrice(option)}</span>
              <Stepper
                label={option.name}
                value={quantity}
                min={0}
                max={group.maxPerOption}
                canIncrease={canAdd(choices, group, option.id)}
                onChange={(next) => onChange(choose(choices, group, option.id, next))}
                itemName={option.name}
                compact
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
