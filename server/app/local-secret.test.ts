import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { withServerSecret } from "./container";
import { localSecret } from "./local-secret";

describe("the secret on embedded defaults", () => {
  it("is generated once, kept owner-only beside the data directory, and reused after a restart", () => {
    const root = mkdtempSync(path.join(tmpdir(), "secret-"));
    const dataDir = path.join(root, "pglite");
    const first = localSecret(dataDir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(localSecret(dataDir)).toBe(first);
    const file = path.join(root, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("is random per process for an in-memory database", () => {
    expect(localSecret("memory://")).not.toBe(localSecret("memory://"));
  });

  it("is required at server start in production with an external database or on Vercel", () => {
    const server = (vars: Record<string, string>) => withServerSecret(parseEnv(vars));
    expect(() => server({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example.com/shop" })).toThrow(/AUTH_SECRET/);
    expect(() => server({ NODE_ENV: "production", VERCEL: "1", DATABASE_URL: "postgres://db.example.com/shop" })).toThrow(/AUTH_SECRET/);
    expect(server({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example.com/shop", AUTH_SECRET: "x".repeat(32) }).secret).toBe("x".repeat(32));
    // The embedded default generates one, and says so truthfully (not "a fixed development secret").
    const embedded = server({ NODE_ENV: "production", PGLITE_DATA_DIR: "memory://" });
    expect(embedded.warnings.join("\n")).toMatch(/random secret was generated for this process only/);
    expect(embedded.warnings.join("\n")).not.toMatch(/fixed|development secret/);
    expect(parseEnv({ NODE_ENV: "production" }).warnings.join("\n")).not.toMatch(/fixed development secret/);
    // Migrations and seeding need no secret, so the configuration itself stays valid without one.
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example.com/shop" })).not.toThrow();
  });
});
