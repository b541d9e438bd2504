import { describe, expect, it } from "vitest";
import { bearerToken, mintCustomerToken, readCustomerToken } from "./customer-token";

const secret = "a-test-secret-that-is-long-enough-000000";
const claims = { sub: "cust_1", mid: "mer_1", sid: "ses_1" };

describe("customer token", () => {
  it("round-trips its claims, encrypted (a JWE)", async () => {
    const token = await mintCustomerToken(secret, claims, 3600);
    expect(token.split(".")).toHaveLength(5);
    expect(token).not.toContain("cust_1");
    expect(await readCustomerToken(secret, token)).toEqual(claims);
  });

  it("is not readable with another secret, when expired, or when it is not a JWE", async () => {
    const token = await mintCustomerToken(secret, claims, 3600);
    expect(await readCustomerToken("another-secret-that-is-long-enough-1111", token)).toBeUndefined();
    expect(await readCustomerToken(secret, "a.b.c")).toBeUndefined();
    expect(await readCustomerToken(secret, "x".repeat(5000))).toBeUndefined();
    expect(await readCustomerToken(secret, `${token.slice(0, 20)}x${token.slice(21)}`)).toBeUndefined();
  });

  it("takes the token of a Bearer header only", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
