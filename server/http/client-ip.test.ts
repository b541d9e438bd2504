import { afterEach, describe, expect, it } from "vitest";
import { clientIp, declarePeerAddressStamping, PEER_ADDRESS_HEADER, resolveClientIpSource } from "./client-ip";

type Settings = Parameters<typeof clientIp>[1];
const PEER_STAMPER = Symbol.for("storefront-ordering-service.peerAddressStamper");
const settings = (overrides: Partial<Settings> = {}): Settings => ({ CLIENT_IP_SOURCE: "auto", VERCEL: undefined, TRUSTED_PROXY_COUNT: 1, ...overrides });
const ip = (headers: Record<string, string>, overrides: Partial<Settings> = {}) => clientIp(new Headers(headers), settings(overrides));

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[PEER_STAMPER];
});

describe("resolveClientIpSource", () => {
  it("auto is vercel on Vercel and socket elsewhere; an explicit source wins", () => {
    expect(resolveClientIpSource({ CLIENT_IP_SOURCE: "auto", VERCEL: "1" })).toBe("vercel");
    expect(resolveClientIpSource({ CLIENT_IP_SOURCE: "auto", VERCEL: undefined })).toBe("socket");
    expect(resolveClientIpSource({ CLIENT_IP_SOURCE: "forwarded", VERCEL: "1" })).toBe("forwarded");
    expect(resolveClientIpSource({ CLIENT_IP_SOURCE: "socket", VERCEL: "1" })).toBe("socket");
  });
});

describe("socket (npm start: scripts/serve.mjs stamps the TCP peer)", () => {
  it("uses the stamped peer address and ignores X-Forwarded-For and X-Real-IP", () => {
    declarePeerAddressStamping();
    expect(ip({ [PEER_ADDRESS_HEADER]: "198.51.100.7", "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" })).toBe("198.51.100.7");
  });

  it("without serve.mjs in front (next start / next dev) a client-sent peer header is never trusted", () => {
    expect(ip({ [PEER_ADDRESS_HEADER]: "1.2.3.4" })).toBe("unknown");
    expect(ip({ [PEER_ADDRESS_HEADER]: "1.2.3.4" }, { CLIENT_IP_SOURCE: "socket" })).toBe("unknown");
  });

  it("a missing or blank stamp is one shared bucket, not a client-chosen one", () => {
    declarePeerAddressStamping();
    expect(ip({ "x-forwarded-for": "1.2.3.4" })).toBe("unknown");
    expect(ip({ [PEER_ADDRESS_HEADER]: "   " })).toBe("unknown");
  });
});

describe("forwarded (behind TRUSTED_PROXY_COUNT proxies of yours)", () => {
  const forwarded = (xff: string | undefined, count = 1) => ip(xff === undefined ? {} : { "x-forwarded-for": xff }, { CLIENT_IP_SOURCE: "forwarded", TRUSTED_PROXY_COUNT: count });

  it("takes the entry the outermost trusted proxy appended, counting from the right", () => {
    expect(forwarded("203.0.113.9")).toBe("203.0.113.9");
    expect(forwarded("203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
  });

  it("entries a client prepends cannot move the choice", () => {
    // The client sent "X-Forwarded-For: 1.1.1.1, 2.2.2.2"; our one proxy appended the real peer.
    expect(forwarded("1.1.1.1, 2.2.2.2, 203.0.113.9")).toBe("203.0.113.9");
    // Two proxies: the load balancer appended the client's address, the ingress appended the LB's.
    expect(forwarded("1.1.1.1,2.2.2.2 , 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
  });

  it("a spoofed peer header or X-Real-IP is ignored in this mode", () => {
    declarePeerAddressStamping();
    expect(ip({ "x-forwarded-for": "1.1.1.1, 203.0.113.9", [PEER_ADDRESS_HEADER]: "9.9.9.9", "x-real-ip": "8.8.8.8" }, { CLIENT_IP_SOURCE: "forwarded" })).toBe("203.0.113.9");
  });

  it("several X-Forwarded-For headers read as one list", () => {
    const headers = new Headers();
    headers.append("x-forwarded-for", "1.1.1.1");
    headers.append("x-forwarded-for", "203.0.113.9");
    expect(clientIp(headers, settings({ CLIENT_IP_SOURCE: "forwarded" }))).toBe("203.0.113.9");
  });

  it("fewer entries than proxies (a hop that did not append) falls back to the leftmost; none is the shared bucket", () => {
    expect(forwarded("203.0.113.9", 2)).toBe("203.0.113.9");
    expect(forwarded(undefined)).toBe("unknown");
    expect(forwarded(" , ")).toBe("unknown");
  });
});

describe("vercel (Vercel's edge overwrites X-Real-IP and X-Forwarded-For)", () => {
  it("prefers X-Real-IP, then the first X-Forwarded-For entry", () => {
    expect(ip({ "x-real-ip": "203.0.113.9", "x-forwarded-for": "198.51.100.1" }, { VERCEL: "1" })).toBe("203.0.113.9");
    expect(ip({ "x-forwarded-for": "198.51.100.1, 10.0.0.1" }, { VERCEL: "1" })).toBe("198.51.100.1");
    expect(ip({}, { VERCEL: "1" })).toBe("unknown");
  });

  it("ignores the peer header even when it is stamped", () => {
    declarePeerAddressStamping();
    expect(ip({ "x-real-ip": "203.0.113.9", [PEER_ADDRESS_HEADER]: "9.9.9.9" }, { VERCEL: "1" })).toBe("203.0.113.9");
  });
});
