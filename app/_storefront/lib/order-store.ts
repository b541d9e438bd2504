/**
 * What the order status page needs to follow one payment, kept per cart on this device: the cart's
 * capability (the order result answers to it) and, once the order completed, the receipt and its
 * capability. CartSession forgets a completed cart, so this record is what lets a reload of the
 * status page (or a later visit) still show the receipt. Never put these in a URL.
 */
export type OrderRecord = {
  locationId: string;
  locationSlug: string;
  cartId: string;
  /** null: a signed-in customer's cart; order result and receipt then answer to the customer's token. */
  cartAccessToken: string | null;
  /** Whose customer token to use (tokens are per merchant): set when cartAccessToken is null. */
  merchantSlug?: string;
  receipt?: { receiptId: string; receiptToken: string };
};

export const orderStorageKey = (cartId: string) => `storefront.order.${cartId}`;

type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

function parse(text: string | null, cartId: string): OrderRecord | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { locationId, locationSlug, cartAccessToken, merchantSlug, receipt } = value;
    if (value.cartId !== cartId || typeof locationId !== "string" || typeof locationSlug !== "string") return null;
    const record: OrderRecord = { locationId, locationSlug, cartId, cartAccessToken: null };
    if (typeof cartAccessToken === "string") record.cartAccessToken = cartAccessToken;
    else if (cartAccessToken === null && typeof merchantSlug === "string") record.merchantSlug = merchantSlug;
    else return null;
    if (typeof receipt === "object" && receipt !== null) {
      const { receiptId, receiptToken } = receipt as Record<string, unknown>;
      if (typeof receiptId === "string" && typeof receiptToken === "string") record.receipt = { receiptId, receiptToken };
    }
    return record;
  } catch {
    return null;
  }
}

export function orderStore(storage: KeyValueStorage) {
  return {
    read(cartId: string): OrderRecord | null {
      try {
        return parse(storage.getItem(orderStorageKey(cartId)), cartId);
      } catch {
        return null;
      }
    },
    write(record: OrderRecord): void {
      try {
        storage.setItem(orderStorageKey(record.cartId), JSON.stringify(record));
      } catch {
        // Storage disabled or full: the status page then cannot resume after a reload, nothing worse.
      }
    },
  };
}

export type OrderStore = ReturnType<typeof orderStore>;

/** The browser's localStorage, or a throwaway one where there is none (server render, private mode). */
export function browserOrderStore(): OrderStore {
  try {
    return orderStore(window.localStorage);
  } catch {
    const entries = new Map<string, string>();
    return orderStore({ getItem: (key) => entries.get(key) ?? null, setItem: (key, value) => void entries.set(key, value) });
  }
}
