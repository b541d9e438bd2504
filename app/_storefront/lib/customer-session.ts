import { useSyncExternalStore } from "react";
import type { Customer } from "./types";

/**
 * The signed-in customer, per merchant (a customer token is bound to one merchant), kept in
 * localStorage so that every page and tab of the storefront shares it; never in a URL. Changes are
 * announced to this page's subscribers directly and to other tabs by the storage event.
 */
export type CustomerSession = { token: string; customer: Customer };

export const customerStorageKey = (merchantSlug: string) => `storefront.customer.${merchantSlug}`;

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function parseCustomerSession(text: string | null): CustomerSession | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { token, customer } = value;
    if (typeof token !== "string" || token.length === 0 || typeof customer !== "object" || customer === null) return null;
    const { id, customerEmail, customerName } = customer as Record<string, unknown>;
    if (typeof id !== "string" || typeof customerEmail !== "string" || typeof customerName !== "string") return null;
    return { token, customer: customer as Customer };
  } catch {
    return null;
  }
}

export function customerSessionStore(storage: () => KeyValueStorage | null) {
  const listeners = new Set<() => void>();
  // The last text read and what it parsed to, per merchant: useSyncExternalStore needs a stable snapshot.
  const snapshots = new Map<string, { text: string | null; session: CustomerSession | null }>();
  const rawRead = (merchantSlug: string): string | null => {
    try {
      return storage()?.getItem(customerStorageKey(merchantSlug)) ?? null;
    } catch {
      return null;
    }
  };
  const notify = () => listeners.forEach((listener) => listener());
  return {
    read(merchantSlug: string): CustomerSession | null {
      const text = rawRead(merchantSlug);
      const known = snapshots.get(merchantSlug);
      if (known && known.text === text) return known.session;
      const session = parseCustomerSession(text);
      snapshots.set(merchantSlug, { text, session });
      return session;
    },
    save(merchantSlug: string, session: CustomerSession): void {
      try {
        storage()?.setItem(customerStorageKey(merchantSlug), JSON.stringify(session));
      } catch {
        // Storage disabled: the sign-in then lasts as long as this page (the snapshot below).
      }
      if (rawRead(merchantSlug) === null) snapshots.set(merchantSlug, { text: null, session });
      notify();
    },
    clear(merchantSlug: string): void {
      try {
        storage()?.removeItem(customerStorageKey(merchantSlug));
      } catch {
        // See save.
      }
      snapshots.delete(merchantSlug);
      notify();
    },
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === null || event.key.startsWith("storefront.customer.")) listener();
      };
      if (typeof window !== "undefined") window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(listener);
        if (typeof window !== "undefined") window.removeEventListener("storage", onStorage);
      };
    },
  };
}

export const customerSessions = customerSessionStore(() => (typeof window === "undefined" ? null : window.localStorage));

/** The signed-in customer at this merchant, or null (also during the server render). */
export function useCustomerSession(merchantSlug: string | undefined): CustomerSession | null {
  return useSyncExternalStore(
    customerSessions.subscribe,
    () => (merchantSlug ? customerSessions.read(merchantSlug) : null),
    () => null,
  );
}
