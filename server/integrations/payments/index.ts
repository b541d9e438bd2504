import { randomBytes } from "node:crypto";
import { simulatedPaymentsAllowed, type Env } from "../../env";
import { logger } from "../../log";
import { createSimulatedProcessor } from "./simulated";
import { createStripeProcessor } from "./stripe";
import type { PaymentProcessor } from "./types";

export type { PaymentProcessor, ProcessorIntent, WebhookEvent } from "./types";
export { PaymentProcessorError, WebhookSignatureError } from "./types";

/**
 * Stripe when STRIPE_SECRET_KEY is set (env.ts then also requires STRIPE_WEBHOOK_SECRET), else the
 * simulated processor where it may answer (SIMULATED_PAYMENTS), else none: the process does not
 * start, since the simulated processor takes Stripe's test cards as payment. Without a configured
 * secret the simulated processor's webhook secret is random per process, so no request from outside
 * can pass its signature check.
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
  if (!simulatedPaymentsAllowed(env)) {
    throw new Error(
      "Invalid configuration:\n  STRIPE_SECRET_KEY: is required for a production start with its own database: without it the simulated processor would take Stripe's test cards as payment for real orders. Set SIMULATED_PAYMENTS=true for a demo or test deployment of one instance",
    );
  }
  if (env.NODE_ENV === "production" && env.DATABASE_URL) {
    logger.warn("card payments go to the simulated processor (SIMULATED_PAYMENTS): Stripe's test cards are taken as payment, and its payments live in this process's memory (one instance only); set STRIPE_SECRET_KEY for a real deployment");
  }
  return createSimulatedProcessor({ webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString("hex")}` });
}
