import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../openapi/document";
import { looksLikeCredential, refuseCredentialsInQuery } from "./credential-query";

describe("a credential in the query string", () => {
  it("is recognised whatever the spelling of its name", () => {
    for (const name of ["cartToken", "X-Cart-Token", "x_cart_token", "CARTACCESSTOKEN", "receipt-token", "customerToken", "access_token", "Authorization", "bearer", "jwt", "api_key", "ApiKey", "client_secret", "password", "sessionId", "signature"]) {
      expect(looksLikeCredential(name), name).toBe(true);
    }
  });

  it("is refused with a 400 naming the parameter", () => {
    expect(() => refuseCredentialsInQuery(new URLSearchParams("limit=5&X-Customer-Token=abc"))).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
  });

  it("is never any of the API's own query parameters", () => {
    const names = new Set<string>();
    for (const item of Object.values(buildOpenApiDocument().paths ?? {})) {
      for (const operation of Object.values(item as Record<string, { parameters?: { name: string; in: string }[] }>)) {
        for (const parameter of operation.parameters ?? []) if (parameter.in === "query") names.add(parameter.name);
      }
    }
    expect(names.size).toBeGreaterThan(3);
    for (const name of names) expect(looksLikeCredential(name), name).toBe(false);
    expect(() => refuseCredentialsInQuery(new URLSearchParams([...names].map((name) => [name, "1"])))).not.toThrow();
  });
});
