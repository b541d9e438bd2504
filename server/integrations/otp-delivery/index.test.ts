import { describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createOtpDelivery } from "./index";

const delivery = (env: Record<string, string>) => createOtpDelivery(parseEnv(env)).name;
const database = { DATABASE_URL: "postgres://app@db.example.com/shop", AUTH_SECRET: "s".repeat(40) };

describe("where one-time codes go", () => {
  it("never to a readable outbox on a production start with its own database, unless it opts in", () => {
    expect(delivery({ NODE_ENV: "production", ...database })).toBe("disabled");
    expect(delivery({ NODE_ENV: "production", ...database, DEV_OUTBOX: "true" })).toBe("outbox");
    expect(delivery({ NODE_ENV: "production", ...database, SMTP_URL: "smtp://mail.example.com", EMAIL_FROM: "shop@example.com" })).toBe("smtp");
  });

  it("to the outbox in development and on the embedded default", () => {
    expect(delivery({ NODE_ENV: "development", ...database })).toBe("outbox");
    expect(delivery({ NODE_ENV: "production" })).toBe("outbox");
  });

  it("refuses DEV_OUTBOX on a Vercel production deployment", () => {
    expect(() => parseEnv({ NODE_ENV: "production", ...database, DEV_OUTBOX: "true", VERCEL: "1", VERCEL_ENV: "production", CRON_SECRET: "c".repeat(32) })).toThrow(/DEV_OUTBOX/);
  });
});
