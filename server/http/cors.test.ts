import { describe, expect, it } from "vitest";
import { corsAllowlist, corsHeaders, isAllowedOrigin, preflightHeaders } from "./cors";

type Settings = Parameters<typeof corsAllowlist>[0];
const settings = (overrides: Partial<Settings> = {}): Settings => ({
  CORS_ALLOWED_ORIGINS: [],
  VERCEL: undefined,
  VERCEL_URL: undefined,
  VERCEL_BRANCH_URL: undefined,
  VERCEL_PROJECT_PRODUCTION_URL: undefined,
  ...overrides,
});

describe("corsAllowlist", () => {
  it("is exactly the configured origins off Vercel (a trailing slash is not part of an origin)", () => {
    expect(corsAllowlist(settings({ CORS_ALLOWED_ORIGINS: ["https://shop.example.com/", "http://localhost:3000"] }))).toEqual(["https://shop.example.com", "http://localhost:3000"]);
    expect(corsAllowlist(settings())).toEqual([]);
  });

  it("adds the deployment's own addresses as https origins on Vercel", () => {
    const list = corsAllowlist(
      settings({
        VERCEL: "1",
        CORS_ALLOWED_ORIGINS: ["https://shop.example.com"],
        VERCEL_URL: "storefront-abc123-team.vercel.app",
        VERCEL_BRANCH_URL: "storefront-git-feature-team.vercel.app",
        VERCEL_PROJECT_PRODUCTION_URL: "Storefront.Example.com",
      }),
    );
    expect(list).toEqual(["https://shop.example.com", "https://storefront-abc123-team.vercel.app", "https://storefront-git-feature-team.vercel.app", "https://storefront.example.com"]);
  });

  it("ignores VERCEL_* host names when not running on Vercel, and lists an origin once", () => {
    expect(corsAllowlist(settings({ VERCEL_URL: "storefront-abc123-team.vercel.app" }))).toEqual([]);
    expect(corsAllowlist(settings({ VERCEL: "1", VERCEL_URL: "a.vercel.app", VERCEL_BRANCH_URL: "a.vercel.app", CORS_ALLOWED_ORIGINS: ["https://a.vercel.app"] }))).toEqual(["https://a.vercel.app"]);
  });

  it("never admits another deployment, another scheme or a look-alike host", () => {
    const list = corsAllowlist(settings({ VERCEL: "1", VERCEL_URL: "storefront-abc123-team.vercel.app" }));
    expect(isAllowedOrigin("https://storefront-abc123-team.vercel.app", list)).toBe(true);
    for (const origin of ["http://storefront-abc123-team.vercel.app", "https://storefront-zzz999-team.vercel.app", "https://storefront-abc123-team.vercel.app.evil.com", "https://evil.com", "null", null]) {
      expect(isAllowedOrigin(origin, list)).toBe(false);
    }
  });
});

describe("CORS headers", () => {
  it("reflects an allowed origin and always varies on Origin", () => {
    expect(corsHeaders("https://a.example", ["https://a.example"])).toMatchObject({ "Access-Control-Allow-Origin": "https://a.example", Vary: "Origin" });
    expect(corsHeaders("https://b.example", ["https://a.example"])).toEqual({ Vary: "Origin" });
    expect(preflightHeaders("https://a.example")["Access-Control-Allow-Headers"]).toContain("Idempotency-Key");
  });
});
