import { describe, expect, it } from "vitest";
import { decode } from "@auth/core/jwt";
import { bearerToken, CUSTOMER_TOKEN_SALT, mintCustomerToken, readCustomerToken } from "./customer-token";

const secret = "a-test-secret-that-is-long-enough-000000";
const claims = { sub: "cust_1", mid: "mer_1", sid: "ses_1" };

describe("customer token", () => {
  it("round-trips its claims, encrypted (a JWE)", async () => {
    const token = await mintCustomerToken(secret, claims, 3600);
    expect(token.split(".")).toHaveLength(5);
    expect(token).not.toContain("cust_1");
    expect(await readCustomerToken(secret, token, new Date())).toEqual(claims);
  });

  it("is not readable with another secret, when expired, or when it is not a JWE", async () => {
    const token = await mintCustomerToken(secret, claims, 3600);
    expect(await readCustomerToken("another-secret-that-is-long-enough-1111", token, new Date())).toBeUndefined();
    expect(await readCustomerToken(secret, "a.b.c", new Date())).toBeUndefined();
    expect(await readCustomerToken(secret, "x".repeat(5000), new Date())).toBeUndefined();
    expect(await readCustomerToken(secret, `${token.slice(0, 20)}x${token.slice(21)}`, new Date())).toBeUndefined();
  });

  it("is refused from the second its exp passes, with no clock tolerance", async () => {
    const token = await mintCustomerToken(secret, claims, 60);
    const payload = await decode({ secret, salt: CUSTOMER_TOKEN_SALT, token });
    const exp = Number(payload?.exp) * 1000;
    expect(await readCustomerToken(secret, token, new Date(exp - 1000))).toEqual(claims);
    for (const late of [0, 1, 5_000, 14_000]) expect(await readCustomerToken(secret, token, new Date(exp + late)), `${late} ms late`).toBeUndefined();
  });

  it("is refused in any spelling but the one minted: padding, whitespace or other characters appended", async () => {
    const token = await mintCustomerToken(secret, claims, 3600);
    for (const variant of [`${token}=`, `${token}==`, `${token}.`, ` ${token}`, token.replace(/\.([^.]*)$/, ".$1=")]) {
      expect(await readCustomerToken(secret, variant, new Date()), variant.slice(-8)).toBeUndefined();
    }
  });

  it("takes the token of a Bearer header only", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
