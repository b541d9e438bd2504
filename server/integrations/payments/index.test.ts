import { describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createPaymentProcessor } from "./index";

const database = { DATABASE_URL: "postgres://db.example.com/shop", AUTH_SECRET: "x".repeat(32) };
const processor = (vars: Record<string, string>) => createPaymentProcessor(parseEnv(vars)).name;

describe("which card processor takes payments", () => {
  it("Stripe whenever its key is set", () => {
    expect(processor({ NODE_ENV: "production", ...database, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toBe("stripe");
  });

  it("never the simulated one on a production start with its own database, unless it opts in: it does not start", () => {
    expect(() => processor({ NODE_ENV: "production", ...database })).toThrow(/STRIPE_SECRET_KEY: is required for a production start with its own database/);
    expect(processor({ NODE_ENV: "production", ...database, SIMULATED_PAYMENTS: "true" })).toBe("simulated");
  });

  it("the simulated one in development, on the embedded default and on Vercel previews", () => {
    expect(processor({ NODE_ENV: "development", ...database })).toBe("simulated");
    expect(processor({ NODE_ENV: "production" })).toBe("simulated");
    expect(processor({ NODE_ENV: "production", ...database, VERCEL: "1", VERCEL_ENV: "preview" })).toBe("simulated");
  });

  it("none where the simulated one is turned off and Stripe is not configured", () => {
    expect(() => processor({ NODE_ENV: "development", SIMULATED_PAYMENTS: "false" })).toThrow(/STRIPE_SECRET_KEY/);
  });

  it("refuses SIMULATED_PAYMENTS on a Vercel production deployment", () => {
    expect(() => parseEnv({ NODE_ENV: "production", ...database, SIMULATED_PAYMENTS: "true", VERCEL: "1", VERCEL_ENV: "production", CRON_SECRET: "c".repeat(32) })).toThrow(/SIMULATED_PAYMENTS/);
  });
});
