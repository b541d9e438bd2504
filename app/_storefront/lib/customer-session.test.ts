import { describe, expect, it } from "vitest";
import { customerSessionStore, customerStorageKey, parseCustomerSession } from "./customer-session";
import type { Customer } from "./types";

const customer: Customer = { id: "cus_1", profilePicture: "", customerEmail: "ada@example.com", customerName: "Ada", lastName: "", phoneNumber: "", phoneNumberVerified: false };

function backing() {
  const entries = new Map<string, string>();
  return { entries, storage: { getItem: (key: string) => entries.get(key) ?? null, setItem: (key: string, value: string) => void entries.set(key, value), removeItem: (key: string) => void entries.delete(key) } };
}

describe("customer sessions", () => {
  it("are kept per merchant, announced to subscribers, and cleared on sign-out", () => {
    const { entries, storage } = backing();
    const store = customerSessionStore(() => storage);
    let announcements = 0;
    const unsubscribe = store.subscribe(() => (announcements += 1));

    store.save("harbor-kitchen", { token: "tok_a", customer });
    expect(store.read("harbor-kitchen")).toEqual({ token: "tok_a", customer });
    expect(store.read("dune-grill")).toBeNull();
    expect(entries.has(customerStorageKey("harbor-kitchen"))).toBe(true);
    store.clear("harbor-kitchen");
    expect(store.read("harbor-kitchen")).toBeNull();
    expect(announcements).toBe(2);

    unsubscribe();
    store.save("harbor-kitchen", { token: "tok_b", customer });
    expect(announcements).toBe(2);
  });

  it("answer the same object while the stored text is unchanged (a stable snapshot for React)", () => {
    const { storage } = backing();
    const store = customerSessionStore(() => storage);
    store.save("harbor-kitchen", { token: "tok_a", customer });
    expect(store.read("harbor-kitchen")).toBe(store.read("harbor-kitchen"));
    store.save("harbor-kitchen", { token: "tok_b", customer });
    expect(store.read("harbor-kitchen")?.token).toBe("tok_b");
  });

  it("ignore corrupt entries and keep working without storage", () => {
    expect(parseCustomerSession("{oops")).toBeNull();
    expect(parseCustomerSession(JSON.stringify({ token: "", customer }))).toBeNull();
    expect(parseCustomerSession(JSON.stringify({ token: "t", customer: { id: 1 } }))).toBeNull();

    const denied = () => {
      throw new Error("denied");
    };
    const store = customerSessionStore(() => ({ getItem: denied, setItem: denied, removeItem: denied }));
    expect(() => store.save("harbor-kitchen", { token: "tok_a", customer })).not.toThrow();
    expect(store.read("harbor-kitchen")?.token).toBe("tok_a");
    store.clear("harbor-kitchen");
    expect(store.read("harbor-kitchen")).toBeNull();
  });
});
