import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { products } from "../../db/schema";
import { handleE2ePublish } from "../../server/http/e2e-admin";
import { requestsRevalidation } from "../../server/http/response-cache";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/**
 * Anonymous catalog reads are served from memory for RESPONSE_CACHE_TTL_MS (5 s by default). The
 * tests rename a product behind the service's back (a direct UPDATE, no publication): whichever
 * name a read shows tells whether it reached the database.
 */
const PRODUCT = "prd_hk_clam_chowder";
const productPath = `/locations/${HARBOR.locationId}/products/${PRODUCT}`;
const menusPath = `/locations/${HARBOR.locationId}/menus`;

let app: TestApp;
let renames = 0;
beforeAll(async () => {
  app = await createTestApp({ env: { E2E_ADMIN_ROUTES: "true" } });
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  app.deps.responseCache.clear();
});

async function renameBehindTheServicesBack(): Promise<string> {
  renames += 1;
  const name = `Chowder, renamed ${renames}`;
  await app.deps.database.db.update(products).set({ name }).where(eq(products.id, PRODUCT));
  return name;
}

const nameOf = async (headers: Record<string, string> = {}) => {
  const response = await app.call("GET", productPath, { headers });
  expect(response.status).toBe(200);
  return (response.body as { name: string }).name;
};

const advance = (ms: number) => {
  app.clock.now = new Date(app.clock.now.getTime() + ms);
};

describe("the response cache", () => {
  it("serves a repeated anonymous read without the database, until the TTL passes", async () => {
    const first = await nameOf();
    const renamed = await renameBehindTheServicesBack();
    expect(await nameOf()).toBe(first);
    advance(4_000);
    expect(await nameOf()).toBe(first);
    advance(1_500);
    expect(await nameOf()).toBe(renamed);
  });

  it("answers If-None-Match from the cache with 304, and with fresh per-request headers", async () => {
    const first = await app.call("GET", menusPath);
    const etag = first.headers.get("etag") ?? "";
    expect(first.headers.get("cache-control")).toMatch(/^public/);
    await renameBehindTheServicesBack();

    const again = await app.call("GET", menusPath, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("x-request-id")).toMatch(/^req_/);
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    // A cached answer still counts against the rate limit, and says so.
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);

    const full = await app.call("GET", menusPath);
    expect(full.status).toBe(200);
    expect(full.text).toBe(first.text);
  });

  it("Cache-Control: no-cache on the request reads the database and refreshes the cached copy", async () => {
    await nameOf();
    const renamed = await renameBehindTheServicesBack();
    expect(await nameOf({ "Cache-Control": "no-cache" })).toBe(renamed);
    expect(await nameOf()).toBe(renamed);
    const next = await renameBehindTheServicesBack();
    expect(await nameOf({ "Cache-Control": "max-age=0" })).toBe(next);
  });

  it("never serves or stores a read that carries a credential", async () => {
    await nameOf();
    const renamed = await renameBehindTheServicesBack();
    // A catalog read with a bearer token is answered privately, from the database.
    const withCredential = await app.call("GET", productPath, { headers: { Authorization: "Bearer not-checked-on-catalog-reads" } });
    expect((withCredential.body as { name: string }).name).toBe(renamed);
    expect(withCredential.headers.get("cache-control")).toBe("private, no-store");
    const next = await renameBehindTheServicesBack();
    expect((await app.call("GET", productPath, { headers: { "X-Cart-Token": "x".repeat(43) } }).then((response) => response.body as { name: string })).name).toBe(next);
  });

  it("keys by the whole URL: other query parameters are other reads", async () => {
    const noon = await app.call("GET", `${menusPath}?orderTime=12:00`);
    const renamed = await renameBehindTheServicesBack();
    expect((await app.call("GET", `${menusPath}?orderTime=12:30`)).text).toContain(renamed);
    const noonAgain = await app.call("GET", `${menusPath}?orderTime=12:00`);
    expect(noonAgain.text).toBe(noon.text);
    expect(noonAgain.text).not.toContain(renamed);
  });

  it("does not keep errors", async () => {
    const missing = `/locations/${HARBOR.locationId}/products/prd_does_not_exist_yet`;
    expect((await app.call("GET", missing)).status).toBe(404);
    const [template] = await app.deps.database.db.select().from(products).where(eq(products.id, PRODUCT));
    if (!template) throw new Error("seed product missing");
    await app.deps.database.db.insert(products).values({ ...template, id: "prd_does_not_exist_yet" });
    expect((await app.call("GET", missing)).status).toBe(200);
  });

  it("is cleared by a catalog publication through this process", async () => {
    const before = await app.call("GET", productPath);
    expect(await handleE2ePublish(app.deps, JSON.stringify({ locationId: HARBOR.locationId, changes: [{ kind: "productPrice", productId: PRODUCT, priceMinor: 777 }] }))).toMatchObject({ status: 200 });
    const after = await app.call("GET", productPath);
    expect((before.body as { price: string }).price).not.toBe("7.77");
    expect((after.body as { price: string }).price).toBe("7.77");
  });

  it("RESPONSE_CACHE_TTL_MS=0 turns it off", async () => {
    const uncached = await createTestApp({ database: app.deps.database, env: { RESPONSE_CACHE_TTL_MS: "0" } });
    try {
      await uncached.call("GET", productPath);
      const renamed = await renameBehindTheServicesBack();
      const response = await uncached.call("GET", productPath);
      expect((response.body as { name: string }).name).toBe(renamed);
    } finally {
      await uncached.close();
    }
  });

  it("reads the request's Cache-Control as RFC 9111 does", () => {
    const revalidates = (value: string) => requestsRevalidation(new Headers({ "cache-control": value }));
    expect(revalidates("no-cache")).toBe(true);
    expect(revalidates("max-age=0")).toBe(true);
    expect(revalidates('max-age="0"')).toBe(true);
    expect(revalidates("no-transform, NO-CACHE")).toBe(true);
    expect(revalidates("max-age=60")).toBe(false);
    expect(revalidates("max-age=00")).toBe(true);
    expect(revalidates("max-age=10")).toBe(false);
    expect(revalidates("no-store")).toBe(false);
    expect(requestsRevalidation(new Headers())).toBe(false);
  });
});
