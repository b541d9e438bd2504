import { describe, expect, it } from "vitest";
import { dependencyUnavailable } from "../../errors";
import { PaymentProcessorError } from "../../integrations/payments/types";
import { keptUnderKey, nextTryKey } from "./processor-calls";

describe("nextTryKey", () => {
  it("numbers the tries after the first: base, base:r1, base:r2, ...", () => {
    expect(nextTryKey("cart_1:pi-update:pi_1:v2")).toBe("cart_1:pi-update:pi_1:v2:r1");
    expect(nextTryKey("cart_1:pi-update:pi_1:v2:r1")).toBe("cart_1:pi-update:pi_1:v2:r2");
    expect(nextTryKey("cart_1:pi-create:abc:v3:r9")).toBe("cart_1:pi-create:abc:v3:r10");
  });

  it("is the same for every caller that read the same key", () => {
    expect(nextTryKey("k:r4")).toBe(nextTryKey("k:r4"));
  });
});

describe("keptUnderKey", () => {
  const kept = new PaymentProcessorError("unavailable", "500 from the processor", { keptUnderKey: true });
  const lost = new PaymentProcessorError("unavailable", "connection reset");

  it("is true for a server error the processor keeps, as it comes and as processorCall rethrows it", () => {
    expect(keptUnderKey(kept)).toBe(true);
    expect(keptUnderKey(dependencyUnavailable("The card processor", kept))).toBe(true);
  });

  it("is false for a call that got no answer, and for anything else", () => {
    expect(keptUnderKey(lost)).toBe(false);
    expect(keptUnderKey(dependencyUnavailable("The card processor", lost))).toBe(false);
    expect(keptUnderKey(new Error("bug"))).toBe(false);
    expect(keptUnderKey(undefined)).toBe(false);
  });
});
