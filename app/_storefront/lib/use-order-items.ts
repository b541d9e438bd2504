import { useEffect, useState } from "react";
import { cartTransport } from "./api";
import type { OrderStore } from "./order-store";
import type { Cart } from "./types";
import { cartCredential } from "./use-order-result";

/**
 * The cart being paid for, read once, so that the wait for the payment shows what was ordered
 * rather than a bare "processing". Null until read, or when it cannot be: the status page works
 * without it, so a failure here is not shown.
 */
export function useOrderItems(cartId: string, store: () => OrderStore): Cart | null {
  const [cart, setCart] = useState<Cart | null>(null);
  useEffect(() => {
    const record = store().read(cartId);
    const credential = record && !record.receipt ? cartCredential(record) : null;
    if (!record || !credential) return;
    let stopped = false;
    cartTransport.readCart({ locationId: record.locationId, cartId }, credential).then(
      (body) => {
        if (!stopped) setCart(body);
      },
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [cartId, store]);
  return cart;
}
