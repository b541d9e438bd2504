import { describe, expect, it } from "vitest";
import { violatesUnique } from "./unique-violation";

const violation = (fields: Record<string, unknown>) => Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505", ...fields });

describe("violatesUnique", () => {
  it("recognises either driver's error, also wrapped, for the named index only", () => {
    expect(violatesUnique(violation({ constraint_name: "customers_merchant_verified_phone_idx" }), "customers_merchant_verified_phone_idx")).toBe(true);
    expect(violatesUnique(violation({ constraint: "customers_merchant_verified_phone_idx" }), "customers_merchant_verified_phone_idx")).toBe(true);
    expect(violatesUnique(new Error("Failed query", { cause: violation({ constraint_name: "x_idx" }) }), "x_idx")).toBe(true);
    expect(violatesUnique(violation({ constraint_name: "customers_merchant_email_idx" }), "customers_merchant_verified_phone_idx")).toBe(false);
    expect(violatesUnique(Object.assign(new Error("other"), { code: "23503", constraint_name: "x_idx" }), "x_idx")).toBe(false);
    expect(violatesUnique("23505", "x_idx")).toBe(false);
  });
});
