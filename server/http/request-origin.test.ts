import { describe, expect, it } from "vitest";
import { requestOrigin } from "./request-origin";

const origin = (url: string, host?: string) => requestOrigin(new Request(url, { headers: host === undefined ? {} : { host } }), new URL(url));

describe("requestOrigin", () => {
  it("is the Host the client addressed, with the URL's scheme", () => {
    expect(origin("http://0.0.0.0:3000/api/v1/storefront/x", "shop.example.com")).toBe("http://shop.example.com");
    expect(origin("https://0.0.0.0:3000/x", "shop.example.com:8443")).toBe("https://shop.example.com:8443");
    expect(origin("http://0.0.0.0:3000/x", "Shop.Example.com")).toBe("http://shop.example.com");
  });

  it("writes a host as URL does: a default port dropped, an IPv6 address compressed", () => {
    expect(origin("http://0.0.0.0:3000/x", "shop.example.com:80")).toBe("http://shop.example.com");
    expect(origin("https://0.0.0.0:3000/x", "shop.example.com:443")).toBe("https://shop.example.com");
    expect(origin("http://0.0.0.0:3000/x", "[0:0::1]:3000")).toBe("http://[::1]:3000");
  });

  it("keeps the URL's origin without a Host, or with one that is not a host", () => {
    expect(origin("http://localhost:3000/x")).toBe("http://localhost:3000");
    for (const host of ["a b", "evil.example.com/path", "user@evil.example.com", "evil.example.com?x", "evil.example.com#x", "a\\b", "", "[::1"]) expect(origin("http://localhost:3000/x", host), host).toBe("http://localhost:3000");
  });
});
