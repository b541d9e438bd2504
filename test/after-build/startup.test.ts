import { describe, expect, it } from "vitest";
import { startServer } from "./servers";

/**
 * Start-up of the production build with a configuration that cannot work: the process must stop
 * with a message naming the problem, before it serves anything, rather than answer every request
 * with a 500.
 */
describe("production start-up with an invalid deployment configuration", () => {
  it("on Vercel without DATABASE_URL (PGlite cannot live there), `npm start` exits at start-up naming DATABASE_URL", async () => {
    const server = await startServer("vercel-no-database", { VERCEL: "1", VERCEL_ENV: "preview", AUTH_SECRET: "x".repeat(40), LOG_LEVEL: "info" });
    try {
      const code = await Promise.race([server.exited, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 45_000))]);
      expect(code, server.output()).not.toBe("running");
      expect(code).not.toBe(0);
      expect(server.output()).toMatch(/DATABASE_URL: is required on Vercel/);
      expect(server.output()).toMatch(/"level":60.*start-up failed/);
    } finally {
      await server.stop();
    }
  });

  it("with its own database but neither STRIPE_SECRET_KEY nor SIMULATED_PAYMENTS, exits naming STRIPE_SECRET_KEY", async () => {
    const server = await startServer("no-card-processor", { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/never_opened", AUTH_SECRET: "x".repeat(40), LOG_LEVEL: "info" });
    try {
      const code = await Promise.race([server.exited, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 45_000))]);
      expect(code, server.output()).not.toBe("running");
      expect(code).not.toBe(0);
      expect(server.output()).toMatch(/STRIPE_SECRET_KEY: is required for a production start with its own database/);
    } finally {
      await server.stop();
    }
  });
});
