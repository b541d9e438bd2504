import { describe, expect, it } from "vitest";
import { deriveKey, seal } from "../security/tokens";
import { packAnswer, unpackAnswer } from "./idempotency";

const key = deriveKey("a-test-secret-that-is-long-enough-000000", "idempotency-response");
const cart = { id: "cart_1", items: Array.from({ length: 20 }, (_, index) => ({ id: `li_${index}`, name: "New England clam chowder", price: "8.95", quantity: 1, selections: [{ name: "Bowl", price: "3.00" }] })) };

describe("stored idempotent answers", () => {
  it("round-trip compressed and sealed, at a fraction of the answer's size", () => {
    const packed = packAnswer(key, cart);
    expect(unpackAnswer(key, packed)).toEqual(cart);
    expect(packed).not.toContain("chowder");
    expect(packed.length / JSON.stringify(cart).length).toBeLessThan(0.3);
  });

  it("still replay records written before compression (sealed JSON)", () => {
    expect(unpackAnswer(key, seal(key, JSON.stringify(cart)))).toEqual(cart);
  });

  it("refuse a tampered record", () => {
    const packed = packAnswer(key, cart);
    // One character of the ciphertext changed (well inside it, so it changes whole bytes, not padding bits).
    const at = Math.floor(packed.length / 2);
    const tampered = `${packed.slice(0, at)}${packed[at] === "A" ? "B" : "A"}${packed.slice(at + 1)}`;
    expect(() => unpackAnswer(key, tampered)).toThrow();
  });
});
