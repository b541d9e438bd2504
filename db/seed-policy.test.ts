import { describe, expect, it } from "vitest";
import { demoSeedDecision } from "./seed-policy";

describe("demoSeedDecision (db:migrate during a deploy)", () => {
  it("seeds Vercel preview deployments by default", () => {
    expect(demoSeedDecision({ SEED_DEMO_DATA: "auto", VERCEL_ENV: "preview" }).seed).toBe(true);
  });

  it("never seeds production, even when asked", () => {
    for (const setting of ["auto", "true", "false"] as const) {
      expect(demoSeedDecision({ SEED_DEMO_DATA: setting, VERCEL_ENV: "production" })).toEqual({ seed: false, reason: "production deployments are never seeded" });
    }
  });

  it("does not seed elsewhere unless asked, and a preview can opt out", () => {
    expect(demoSeedDecision({ SEED_DEMO_DATA: "auto", VERCEL_ENV: undefined }).seed).toBe(false);
    expect(demoSeedDecision({ SEED_DEMO_DATA: "auto", VERCEL_ENV: "development" }).seed).toBe(false);
    expect(demoSeedDecision({ SEED_DEMO_DATA: "true", VERCEL_ENV: undefined }).seed).toBe(true);
    expect(demoSeedDecision({ SEED_DEMO_DATA: "false", VERCEL_ENV: "preview" }).seed).toBe(false);
  });
});
