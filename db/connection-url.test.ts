import { describe, expect, it } from "vitest";
import { normalizeConnectionUrl, redactConnectionUrl, transactionPoolerHint } from "./connection-url";

describe("transactionPoolerHint", () => {
  it("recognises the common transaction-mode pooler URLs", () => {
    expect(transactionPoolerHint("postgres://u:p@aws-0-eu-central-1.pooler.supabase.com:6543/postgres")).toMatch(/6543/);
    expect(transactionPoolerHint("postgres://u:p@db.example.com:5432/app?pgbouncer=true&connect_timeout=15")).toMatch(/pgbouncer/);
    expect(transactionPoolerHint("postgresql://u:p@ep-cool-river-123456-pooler.us-east-2.aws.neon.tech/neondb?sslmode=require")).toMatch(/pooled endpoint/);
  });

  it("treats direct URLs (and Supabase's session-mode pooler on 5432) as direct", () => {
    expect(transactionPoolerHint("postgresql://u:p@ep-cool-river-123456.us-east-2.aws.neon.tech/neondb?sslmode=require")).toBeUndefined();
    expect(transactionPoolerHint("postgres://u:p@aws-0-eu-central-1.pooler.supabase.com:5432/postgres")).toBeUndefined();
    expect(transactionPoolerHint("postgres://postgres@127.0.0.1:5432/app?pgbouncer=false")).toBeUndefined();
    expect(transactionPoolerHint(undefined)).toBeUndefined();
    expect(transactionPoolerHint("not a url")).toBeUndefined();
  });
});

describe("normalizeConnectionUrl", () => {
  it("drops the client-only parameters Postgres would refuse as settings, and keeps the driver's own", () => {
    const normalized = new URL(normalizeConnectionUrl("postgres://u:p%40ss@host:6543/db?sslmode=require&pgbouncer=true&channel_binding=require&connection_limit=1&supa=base-pooler.x&options=-c%20search_path%3Dapp"));
    expect([...normalized.searchParams.keys()].sort()).toEqual(["options", "sslmode"]);
    expect(normalized.password).toBe("p%40ss");
    expect(normalized.host).toBe("host:6543");
    expect(normalized.pathname).toBe("/db");
  });
});

describe("redactConnectionUrl", () => {
  it("never shows the password or the parameters", () => {
    const shown = redactConnectionUrl("postgres://app:s3cret-pw@db.example.com:5432/shop?sslmode=require&password=x");
    expect(shown).toBe("postgres://app@db.example.com:5432/shop");
    expect(shown).not.toContain("s3cret");
  });
});
