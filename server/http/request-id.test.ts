import { describe, expect, it } from "vitest";
import { newRequestId } from "./request-id";

describe("request ids", () => {
  it("are req_ and 16 base64url characters, unique across pool refills", () => {
    // 512 ids per pool: 3,000 ids cross several refills.
    const ids = Array.from({ length: 3_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
