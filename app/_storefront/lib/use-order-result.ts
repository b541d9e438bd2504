import { useEffect, useState } from "react";
import { checkoutApi } from "./api";
import { bearer, type CredentialHeaders } from "./cart-session";
import { customerSessions } from "./customer-session";
import { asStorefrontError, StorefrontError } from "./errors";
import { nextPollDelay, retryDelay } from "./order-polling";
import type { OrderStore, OrderRecord } from "./order-store";
import type { OrderResult, Receipt } from "./types";

export type OrderView =
  | { phase: "loading" }
  | { phase: "unknown" }
  | { phase: "pending"; result: OrderResult | null }
  | { phase: "failed"; failure: { code: string; message: string } }
  | { phase: "completed"; receipt: Receipt }
  | { phase: "error"; error: StorefrontError; retry: () => void };

type ReceiptCredential = { "X-Receipt-Token": string } | { Authorization: string };

/** The credential the order record's cart answers to now: its capability, or the customer's current token. */
export function cartCredential(record: OrderRecord): CredentialHeaders | null {
  if (record.cartAccessToken !== null) return { "X-Cart-Token": record.cartAccessToken };
  const session = record.merchantSlug ? customerSessions.read(record.merchantSlug) : null;
  return session ? { Authorization: bearer(session.token) } : null;
}

const signInAgain = () => new StorefrontError({ code: "UNAUTHORIZED", message: "This order belongs to your account: sign in again to see it.", status: 401 });

/**
 * Follows one payment to its end: polls order-result as the server asks (pollAfterMs), keeps the
 * receipt capability of a completed order in the order record, and reads the receipt. A record
 * that already holds a receipt goes straight to it, so a reload after completion still shows it.
 * A signed-in customer's order has no receipt capability: the customer's token opens its receipt.
 */
export function useOrderResult(cartId: string, store: () => OrderStore): OrderView {
  const [view, setView] = useState<OrderView>({ phase: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const orders = store();
    const record = orders.read(cartId);
    if (!record) {
      setView({ phase: "unknown" });
      return;
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const wait = (ms: number, next: () => void) => {
      timer = setTimeout(next, ms);
    };
    const fail = (thrown: unknown, next: () => void) => {
      const error = asStorefrontError(thrown);
      failures += 1;
      const delay = retryDelay(error, failures);
      if (delay === null) setView({ phase: "error", error, retry: () => setAttempt((value) => value + 1) });
      else wait(delay, next);
    };

    const showReceipt = async (receiptId: string, credential: ReceiptCredential, fromRecord: boolean) => {
      try {
        const body = await checkoutApi.receipt(receiptId, credential);
        if (!stopped) setView({ phase: "completed", receipt: body });
      } catch (thrown) {
        if (stopped) return;
        // A stored receipt capability that no longer works: the order result issues a fresh one.
        if (fromRecord && asStorefrontError(thrown).status === 401) void poll();
        else fail(thrown, () => void showReceipt(receiptId, credential, fromRecord));
      }
    };

    const poll = async () => {
      const credential = cartCredential(record);
      if (!credential) {
        setView({ phase: "error", error: signInAgain(), retry: () => setAttempt((value) => value + 1) });
        return;
      }
      try {
        const result = await checkoutApi.orderResult({ locationId: record.locationId, cartId: record.cartId }, credential);
        if (stopped) return;
        failures = 0;
        if (result.status === "completed" && result.receiptId && "Authorization" in credential) {
          await showReceipt(result.receiptId, credential, false);
          return;
        }
        if (result.status === "completed") {
          if (!result.receiptId || !result.receiptToken) {
            setView({ phase: "error", error: new StorefrontError({ code: "RECEIPT_UNAVAILABLE", message: "Your order is confirmed, but its receipt is not available on this device.", status: null }), retry: () => setAttempt((value) => value + 1) });
            return;
          }
          const receipt = { receiptId: result.receiptId, receiptToken: result.receiptToken };
          orders.write({ ...record, receipt });
          await showReceipt(receipt.receiptId, { "X-Receipt-Token": receipt.receiptToken }, false);
          return;
        }
        if (result.status === "failed") {
          setView({ phase: "failed", failure: result.failure ?? { code: "payment_failed", message: "The payment failed." } });
          return;
        }
        setView({ phase: "pending", result });
        wait(nextPollDelay(result) ?? 1000, () => void poll());
      } catch (thrown) {
        if (!stopped) fail(thrown, () => void poll());
      }
    };

    if (record.receipt) void showReceipt(record.receipt.receiptId, { "X-Receipt-Token": record.receipt.receiptToken }, true);
    else {
      setView({ phase: "pending", result: null });
      void poll();
    }
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [cartId, store, attempt]);

  return view;
}
