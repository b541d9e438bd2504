import { describe, expect, it } from "vitest";
import { customerMessage } from "./customer-message";
import { NETWORK_ERROR, StorefrontError } from "./errors";

const error = (code: string, status: number | null, message = "An unexpected error occurred. Quote the request id when reporting it.") => new StorefrontError({ code, message, status, requestId: "req_abcdefghijklmnop" });

describe("what a customer reads for an error", () => {
  it("never the service's developer text or a status number for server and transport failures", () => {
    for (const failure of [error("INTERNAL_ERROR", 500), error("DEPENDENCY_UNAVAILABLE", 503), error(NETWORK_ERROR, null), error("RATE_LIMITED", 429), error("SOMETHING_NEW", 502)]) {
      const text = customerMessage(failure);
      expect(text).not.toMatch(/request id|answered|\d{3}|code:/i);
      expect(text).toMatch(/try again/i);
    }
  });

  it("says in plain words that a withdrawn discount code keeps the payment back, and what to do", () => {
    const withdrawn = new StorefrontError({ code: "REQUOTE_REQUIRED", message: "Discount code FIVEOFF is no longer offered: remove it (DELETE .../discounts/apply-discount)", status: 409, details: { reasons: ["DISCOUNT_WITHDRAWN"] } });
    expect(customerMessage(withdrawn)).toBe("Your discount code is no longer offered as it was when you applied it. Remove it, or apply it again, to pay.");
  });

  it("keeps the service's message about the customer's own input", () => {
    expect(customerMessage(error("VALIDATION_ERROR", 400, 'Discount code "EXPIRED20" is not valid here'))).toBe('Discount code "EXPIRED20" is not valid here');
  });
});
