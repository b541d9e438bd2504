import { describe, expect, it } from "vitest";
import { secureRandomBytes } from "./random";

describe("secureRandomBytes", () => {
  it("hands out bytes of the size asked, never the same twice, across pool refills", () => {
    const seen = new Set<string>();
    // 3,000 x 32 bytes: the 4 KiB pool is refilled more than 20 times on the way.
    for (let index = 0; index < 3_000; index += 1) {
      const bytes = secureRandomBytes(32);
      expect(bytes.length).toBe(32);
      seen.add(bytes.toString("hex"));
    }
    expect(seen.size).toBe(3_000);
    expect(secureRandomBytes(12).length).toBe(12);
    expect(secureRandomBytes(5_000).length).toBe(5_000);
  });

  it("gives each caller a copy of its own, which later draws do not change", () => {
    const first = secureRandomBytes(16);
    const kept = Buffer.from(first);
    for (let index = 0; index < 300; index += 1) secureRandomBytes(16);
    expect(first.equals(kept)).toBe(true);
  });
});
