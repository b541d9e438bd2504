import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** server/env.ts promises that every variable it reads is documented in README.md and .env.example. */
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const declared = [...read("server/env.ts").matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1] ?? "");
// Read in parseEnv rather than declared in the schema.
const aliases = ["POSTGRES_URL"];

describe("configuration documentation", () => {
  it("finds the declared variables", () => {
    expect(declared).toEqual(expect.arrayContaining(["DATABASE_URL", "CRON_SECRET", "RATE_LIMIT_PREFIX"]));
  });

  it.each([".env.example", "README.md"])("%s names every variable server/env.ts reads", (file) => {
    const text = read(file);
    const missing = [...declared, ...aliases].filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    expect(missing).toEqual([]);
  });
});
