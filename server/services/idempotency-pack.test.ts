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

  it("round-trip an answer large enough for the faster compression level, still at a fraction of its size", () => {
    const large = { ...cart, items: Array.from({ length: 200 }, (_, index) => ({ ...cart.items[0], id: `li_${index}`, specialInstructions: `line ${index}` })) };
    expect(JSON.stringify(large).length).toBeGreaterThan(16_384);
    const packed = packAnswer(key, large);
    expect(unpackAnswer(key, packed)).toEqual(large);
    expect(packed.length / JSON.stringify(large).length).toBeLessThan(0.1);
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
