"use client";

import { useState, type FormEvent } from "react";
import type { StorefrontError } from "./errors";
import { MONEY_INPUT } from "./format";
import type { ActionResult } from "./use-cart";

/**
 * The state behind a tip's chips and its custom amount, shared by the gratuity and courier-tip
 * sections: which choice is being sent, the last failure, and the custom amount's field, checked
 * against the same money pattern before it is sent.
 */
export function useTipChoice<Choice>(props: { onSet: (choice: Choice) => Promise<ActionResult>; customChoice: (amount: string) => Choice; example: string }) {
  const { onSet, customChoice, example } = props;
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<StorefrontError>();
  const [customOpen, setCustomOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string>();

  /** Sends a choice; `id` names the control that sent it while it is on its way. */
  const set = async (id: string, choice: Choice) => {
    setWorking(id);
    const result = await onSet(choice);
    setWorking(null);
    setError(result.ok ? undefined : result.error);
    return result.ok;
  };

  const submitCustom = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = amount.trim();
    if (!MONEY_INPUT.test(trimmed)) {
      setProblem(`Enter an amount such as ${example} or 4.50.`);
      return;
    }
    setProblem(undefined);
    if (await set("custom", customChoice(trimmed))) setCustomOpen(false);
  };

  return { working, error, customOpen, toggleCustom: () => setCustomOpen((open) => !open), amount, setAmount, problem, set, submitCustom };
}

export type TipChoice = ReturnType<typeof useTipChoice>;
