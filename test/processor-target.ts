import type { PaymentIntentLedger } from "../server/integrations/payments/ledger";
import type { TestApp } from "./harness";
import { testTarget } from "./harness";
import { FAKE_STRIPE_KEY, startFakeStripe, type FakeStripe } from "./stripe-fake";

/**
 * The card processor a checkout test file runs against. In-process: the embedded simulated one,
 * whose ledger the test reads from the app's own dependencies. Against the production build the
 * simulated processor's ledger would live in the server's memory, out of the test's reach, so
 * there it is the real Stripe SDK in the bundle against the local Stripe fake, whose ledger is the
 * same model. The simulated processor in the bundle is shown by test/integration/simulated-processor.test.ts
 * and the browser tests.
 */
export type ProcessorUnderTest = {
  name: "simulated" | "stripe";
  env: Record<string, string>;
  ledgerOf: (app: TestApp) => PaymentIntentLedger;
  close: () => Promise<void>;
};

export async function processorForTarget(webhookSecret: string): Promise<ProcessorUnderTest> {
  if (testTarget === "in-process") {
    return {
      name: "simulated",
      env: { STRIPE_WEBHOOK_SECRET: webhookSecret },
      ledgerOf: (app) => {
        const payments = app.deps.payments as Partial<{ ledger: PaymentIntentLedger }>;
        if (!payments.ledger) throw new Error("the app's processor is not the simulated one");
        return payments.ledger;
      },
      close: () => Promise.resolve(),
    };
  }
  const fake: FakeStripe = await startFakeStripe();
  return {
    name: "stripe",
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: fake.url, STRIPE_MAX_NETWORK_RETRIES: "0" },
    ledgerOf: () => fake.ledger,
    close: () => fake.close(),
  };
}
