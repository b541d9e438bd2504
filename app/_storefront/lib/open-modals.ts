import { useSyncExternalStore } from "react";

/**
 * The modal dialogs open now, in the order they were opened: the last one is on top of the top
 * layer, and everything outside it is inert. Modal keeps this list; what must stay usable while a
 * modal is open (the notices) renders into the top one.
 */
let stack: readonly HTMLDialogElement[] = [];
const listeners = new Set<() => void>();

function publish(next: readonly HTMLDialogElement[]): void {
  stack = next;
  for (const listener of listeners) listener();
}

export const openModals = {
  opened(dialog: HTMLDialogElement): void {
    publish([...stack.filter((entry) => entry !== dialog), dialog]);
  },
  closed(dialog: HTMLDialogElement): void {
    if (stack.includes(dialog)) publish(stack.filter((entry) => entry !== dialog));
  },
};

/** The modal dialog on top, or null when none is open. */
export function topModal(): HTMLDialogElement | null {
  return stack.at(-1) ?? null;
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The modal dialog on top, or null when none is open (also during server rendering). */
export function useTopModal(): HTMLDialogElement | null {
  return useSyncExternalStore(subscribe, topModal, () => null);
}
