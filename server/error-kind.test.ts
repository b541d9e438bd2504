import { describe, expect, it, vi } from "vitest";
import type * as ErrorsModule from "./errors";
import type * as ErrorsMapModule from "./errors-map";
import type * as PaymentTypesModule from "./integrations/payments/types";
import type * as ProcessorCallsModule from "./services/checkout/processor-calls";

/**
 * The production bundle can load a module twice (two chunks, two copies of each class). A fresh
 * module registry gives the same situation in a test: errors made by one copy must be recognised,
 * and mapped to the same answer, by the other copy's code.
 */
async function twoCopies<T>(path: string): Promise<[T, T]> {
  vi.resetModules();
  const first = (await import(path)) as T;
  vi.resetModules();
  const second = (await import(path)) as T;
  return [first, second];
}

describe("error identity across copies of a module", () => {
  it("an AppError from another copy keeps its code and status through toAppError", async () => {
    const [errorsA] = await twoCopies<typeof ErrorsModule>("./errors");
    const [, mapB] = await twoCopies<typeof ErrorsMapModule>("./errors-map");
    const thrown = new errorsA.AppError("CART_CONFLICT", "stale revision");
    const mapped = mapB.toAppError(thrown);
    expect(mapped.code).toBe("CART_CONFLICT");
    expect(mapped.status).toBe(409);
    expect(mapped.message).toBe("stale revision");
  });

  it("a payment processor error from another copy is recognised by the checkout's processor calls", async () => {
    const [typesA] = await twoCopies<typeof PaymentTypesModule>("./integrations/payments/types");
    const [, callsB] = await twoCopies<typeof ProcessorCallsModule>("./services/checkout/processor-calls");
    const unavailable = new typesA.PaymentProcessorError("unavailable", "processor down");
    await expect(callsB.processorCall(() => Promise.reject(unavailable))).rejects.toMatchObject({ code: "DEPENDENCY_UNAVAILABLE" });
    const deps = { payments: { retrieveIntent: () => Promise.reject(new typesA.PaymentProcessorError("not_found", "gone")) } };
    await expect(callsB.retrieveOrNull(deps as never, "pi_x")).resolves.toBeNull();
  });

  it("a webhook signature error from another copy is recognised, and instanceof would not be", async () => {
    const [typesA, typesB] = await twoCopies<typeof PaymentTypesModule>("./integrations/payments/types");
    const error = new typesA.WebhookSignatureError("bad signature");
    expect(error instanceof typesB.WebhookSignatureError).toBe(false);
    expect(typesB.isWebhookSignatureError(error)).toBe(true);
    expect(typesB.isPaymentProcessorError(error)).toBe(false);
  });
});
