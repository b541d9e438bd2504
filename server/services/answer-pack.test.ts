import { createHash } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deriveKey, seal } from "../security/tokens";
import { ANSWER_DICTIONARY_Z2 } from "./answer-dictionary";
import { packAnswer, unpackAnswer } from "./answer-pack";
import { jsonText } from "../../db/json-text";

const key = deriveKey("a-test-secret-that-is-long-enough-000000", "idempotency-response");
const line = (index: number) => ({
  id: `li_${index}`,
  productId: "prd_chowder",
  name: "New England clam chowder",
  price: "8.95",
  priceFormatted: "$8.95",
  quantity: 1,
  itemUnavailableAction: "remove_item",
  selections: [{ modifierGroupId: "mg_size", modifierGroupName: "Size", optionId: "opt_bowl", optionName: "Bowl", quantity: 1, price: "3.00", priceFormatted: "$3.00" }],
});
const cart = { id: "cart_1", status: "OPEN", currency: "usd", subTotal: "59.75", subTotalFormatted: "$59.75", items: Array.from({ length: 5 }, (_, index) => line(index)) };
const sizeOf = (packed: string) => packed.length / JSON.stringify(cart).length;

describe("stored idempotent answers", () => {
  it("round-trip compressed with the dictionary and sealed, at a fraction of the answer's size", () => {
    const packed = packAnswer(key, cart);
    expect(packed.startsWith("z2.")).toBe(true);
    expect(unpackAnswer(key, packed)).toEqual(cart);
    expect(packed).not.toContain("chowder");
    expect(sizeOf(packed)).toBeLessThan(0.3);
  });

  it("take less room than the same answer deflated without the dictionary (format z1)", () => {
    const withoutDictionary = `z1.${seal(key, deflateRawSync(JSON.stringify(cart), { level: 6 }))}`;
    expect(packAnswer(key, cart).length).toBeLessThan(withoutDictionary.length * 0.85);
  });

  it("round-trip a large answer, compressed with Brotli (format b1), still at a fraction of its size", () => {
    const large = { ...cart, items: Array.from({ length: 200 }, (_, index) => ({ ...line(index), specialInstructions: `line ${index}` })) };
    const packed = packAnswer(key, large);
    expect(packed.startsWith("b1.")).toBe(true);
    expect(packed).not.toContain("chowder");
    expect(unpackAnswer(key, packed)).toEqual(large);
    expect(jsonText(unpackAnswer(key, packed))).toBe(JSON.stringify(large));
    expect(packed.length / JSON.stringify(large).length).toBeLessThan(0.1);
  });

  it("choose the format by the answer's length: z2 below 16,384 characters of JSON, b1 from there on, non-ASCII text included", () => {
    // {"text":""} is 11 characters: the text of a value of n - 11 characters is n long.
    const ofLength = (length: number, unit: string) => ({ text: unit.repeat(length - 11) });
    for (const [length, format] of [[16_383, "z2."], [16_384, "b1."], [40_000, "b1."]] as const) {
      for (const unit of ["x", "\u00e9"]) {
        const body = ofLength(length, unit);
        expect(JSON.stringify(body).length).toBe(length);
        const packed = packAnswer(key, body);
        expect(packed.slice(0, 3)).toBe(format);
        expect(jsonText(unpackAnswer(key, packed))).toBe(JSON.stringify(body));
      }
    }
  });

  it("still replay a large answer stored before b1, deflated with the dictionary (z2)", () => {
    const large = { ...cart, items: Array.from({ length: 200 }, (_, index) => line(index)) };
    const z2 = `z2.${seal(key, deflateRawSync(JSON.stringify(large), { level: 3, dictionary: ANSWER_DICTIONARY_Z2 }))}`;
    expect(jsonText(unpackAnswer(key, z2))).toBe(JSON.stringify(large));
  });

  it("still replay records written in the earlier formats: z1 (deflated without a dictionary) and sealed JSON", () => {
    expect(unpackAnswer(key, `z1.${seal(key, deflateRawSync(JSON.stringify(cart)))}`)).toEqual(cart);
    expect(unpackAnswer(key, seal(key, JSON.stringify(cart)))).toEqual(cart);
  });

  it("keep the z2 dictionary as written: records deflated with it inflate only with the same bytes", () => {
    expect(createHash("sha256").update(ANSWER_DICTIONARY_Z2).digest("hex")).toBe("51dc7d1eb28d9a3f2f6cd9cfe6bdb328dc276255551a5bfb3f1d8e5bd1b4bc7b");
  });

  it("refuse a tampered record, of either format", () => {
    const large = { ...cart, items: Array.from({ length: 200 }, (_, index) => line(index)) };
    for (const packed of [packAnswer(key, cart), packAnswer(key, large)]) {
      // One character of the ciphertext changed (well inside it, so it changes whole bytes, not padding bits).
      const at = Math.floor(packed.length / 2);
      const tampered = `${packed.slice(0, at)}${packed[at] === "A" ? "B" : "A"}${packed.slice(at + 1)}`;
      expect(() => unpackAnswer(key, tampered)).toThrow();
    }
  });

  it("remember the text an answer was packed from or unpacked to, which the response then sends as it is", () => {
    const answer = structuredClone(cart);
    const packed = packAnswer(key, answer);
    // Changed afterwards, which no answer is once stored: the text sent is the stored one, so this shows it is reused.
    answer.status = "CHANGED";
    expect(jsonText(answer)).toBe(JSON.stringify(cart));
    const replayed = unpackAnswer(key, packed) as typeof cart;
    replayed.status = "CHANGED";
    expect(jsonText(replayed)).toBe(JSON.stringify(cart));
    // Any other object, and a value that is not one, is serialised as JSON.stringify would.
    expect(jsonText(structuredClone(answer))).toBe(JSON.stringify(answer));
    expect(jsonText(undefined)).toBeUndefined();
    expect(jsonText("a")).toBe('"a"');
  });
});
