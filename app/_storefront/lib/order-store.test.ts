import { describe, expect, it } from "vitest";
import { orderStorageKey, orderStore } from "./order-store";

function storage() {
  const entries = new Map<string, string>();
  return { entries, storage: { getItem: (key: string) => entries.get(key) ?? null, setItem: (key: string, value: string) => void entries.set(key, value) } };
}

const record = { locationId: "loc_1", locationSlug: "harbor", cartId: "cart_1", cartAccessToken: "ct_secret" };

describe("order records", () => {
  it("keep one cart's capability and, later, its receipt", () => {
    const { storage: backing } = storage();
    const store = orderStore(backing);
    expect(store.read("cart_1")).toBeNull();
    store.write(record);
    expect(store.read("cart_1")).toEqual(record);
    store.write({ ...record, receipt: { receiptId: "rcpt_1", receiptToken: "rt_secret" } });
    expect(store.read("cart_1")?.receipt).toEqual({ receiptId: "rcpt_1", receiptToken: "rt_secret" });
    expect(store.read("cart_2")).toBeNull();
  });

  it("keep a signed-in customer's order by merchant instead of a cart capability", () => {
    const { storage: backing } = storage();
    const store = orderStore(backing);
    const customerRecord = { locationId: "loc_1", locationSlug: "harbor", cartId: "cart_1", cartAccessToken: null, merchantSlug: "harbor-kitchen" };
    store.write(customerRecord);
    expect(store.read("cart_1")).toEqual(customerRecord);
  });

  it("ignore corrupt, foreign or incomplete entries, and storage that throws", () => {
    const { entries, storage: backing } = storage();
    const store = orderStore(backing);
    entries.set(orderStorageKey("cart_1"), "{oops");
    expect(store.read("cart_1")).toBeNull();
    entries.set(orderStorageKey("cart_1"), JSON.stringify({ ...record, cartId: "cart_9" }));
    expect(store.read("cart_1")).toBeNull();
    entries.set(orderStorageKey("cart_1"), JSON.stringify({ ...record, cartAccessToken: 7 }));
    expect(store.read("cart_1")).toBeNull();
    entries.set(orderStorageKey("cart_1"), JSON.stringify({ ...record, receipt: { receiptId: "rcpt_1" } }));
    expect(store.read("cart_1")).toEqual(record);

    entries.set(orderStorageKey("cart_1"), JSON.stringify({ ...record, cartAccessToken: null }));
    expect(store.read("cart_1")).toBeNull();

    const broken = orderStore({ getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); } });
    expect(() => broken.write(record)).not.toThrow();
    expect(broken.read("cart_1")).toBeNull();
  });
});
