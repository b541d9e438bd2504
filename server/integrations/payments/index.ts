import { randomBytes } from "node:crypto";
import type { Env } from "../../env";
import { createSimulatedProcessor } from "./simulated";
import { createStripeProcessor } from "./stripe";
import type { PaymentProcessor } from "./types";

export type { PaymentProcessor, ProcessorIntent, WebhookEvent } from "./types";
export { PaymentProcessorError, WebhookSignatureError } from "./types";

/**
 * Stripe when STRIPE_SECRET_KEY is set (env.ts then also requires STRIPE_WEBHOOK_SECRET), else the
 * simulated processor. Without a configured secret the simulated processor's webhook secret is
 * random per process, so no request from outside can pass its signature check.
 */
export function createPaymentProcessor(env: Env): PaymentProcessor {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) {
    return createStripeProcessor({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiBase: env.STRIPE_API_BASE,
      timeoutMs: env.STRIPE_TIMEOUT_MS,
      maxNetworkRetries: env.STRIPE_MAX_NETWORK_RETRIES,
    });
  }
  return createSimulatedProcessor({ webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString("hex")}` });
}
