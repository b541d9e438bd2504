import { describe, expect, it } from "vitest";
import { serializeError } from "./log-errors";

describe("logged errors", () => {
  it("keep the cause chain and codes but never a failed statement's parameters", () => {
    const driver = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const query = new Error('Failed query: select "id" from "idempotency_records" where "key" = $1\nparams: secret-idempotency-key-123,ct_token', {
      cause: driver,
    });
    const logged = serializeError(new Error(query.message, { cause: query }));
    const text = JSON.stringify(logged);
    expect(text).not.toContain("secret-idempotency-key-123");
    expect(text).not.toContain("ct_token");
    expect(text).toContain("Failed query: select");
    expect(logged?.cause?.cause).toMatchObject({ code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:1" });
  });
});
