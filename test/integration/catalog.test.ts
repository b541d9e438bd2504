import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCatalog } from "../../db/seed-data";
import { createTestApp, DUNE, HARBOR, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { STOREFRONT_BASE_URL: "https://order.example.com" } });
});
afterAll(async () => {
  await app.close();
});

type Product = { id: string; available: boolean; price: string; priceFormatted: string; modifierGroups: unknown[] };
type Menus = { orderDate: string; orderTime: string; menus: { name: string; categories: { products: Product[] }[] }[] };

describe("locations", () => {
  it("reads a location by slug and by id, with merchant, hours and fulfilment methods", async () => {
    const bySlug = await app.call("GET", `/locations/${HARBOR.slug}`);
    const byId = await app.call("GET", `/locations/${HARBOR.locationId}`);
    expect(bySlug.status).toBe(200);
    expect(byId.text).toBe(bySlug.text);
    expect(bySlug.body).toMatchObject({
      id: HARBOR.locationId,
      slug: HARBOR.slug,
      merchant: { slug: "harbor-kitchen" },
      currency: "usd",
      timeZone: "America/New_York",
      isOpenNow: true,
    });
    const methods = (bySlug.body as { fulfillmentMethods: { method: string; feeFix: string }[] }).fulfillmentMethods;
    expect(methods.map((method) => method.method).sort()).toEqual(["delivery", "table_side", "takeout"]);
    expect(methods.find((method) => method.method === "delivery")?.feeFix).toBe("1.99");
  });

  it("404s an unknown location", async () => {
    expect((await app.call("GET", "/locations/nowhere-at-all")).status).toBe(404);
  });
});

describe("menus", () => {
  it("selects the menus available at the requested local time", async () => {
    const breakfast = (await app.call("GET", `/locations/${HARBOR.locationId}/menus?orderDate=2099-03-02&orderTime=08:00`)).body as Menus;
    const dinner = (await app.call("GET", `/locations/${HARBOR.locationId}/menus?orderDate=2099-03-02&orderTime=19:00`)).body as Menus;
    expect(breakfast.menus.map((menu) => menu.name)).toContain("Breakfast");
    expect(dinner.menus.map((menu) => menu.name)).not.toContain("Breakfast");
    expect(dinner.orderTime).toBe("19:00");
    const soldOut = dinner.menus.flatMap((menu) => menu.categories.flatMap((category) => category.products)).find((product) => product.id === "prd_hk_oysters");
    expect(soldOut?.available).toBe(false);
  });

  it("rejects malformed date and time queries", async () => {
    for (const query of ["orderDate=2099-3-2", "orderTime=7pm", "orderDate=2099-02-30", "orderTime=24:00"]) {
      expect((await app.call("GET", `/locations/${HARBOR.locationId}/menus?${query}`)).status, query).toBe(400);
    }
  });
});

describe("products", () => {
  it("pages through every product with a cursor, in menu order, without repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=5&cursor=${cursor}` : "?limit=5";
      const page = (await app.call("GET", `/locations/${HARBOR.locationId}/products${query}`)).body as { products: Product[]; nextCursor: string | null };
      expect(page.products.length).toBeLessThanOrEqual(5);
      seen.push(...page.products.map((product) => product.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    const all = (await app.call("GET", `/locations/${HARBOR.locationId}/products?limit=500`)).body as { products: Product[]; nextCursor: null };
    expect(seen).toEqual(all.products.map((product) => product.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(12);
    expect(all.nextCursor).toBeNull();
  });

  it("rejects bad limits and forged cursors", async () => {
    // A limit is its decimal digits alone: no exponent, hex, sign, fraction or padding.
    for (const query of ["limit=0", "limit=501", "limit=abc", "limit=1e2", "limit=0x10", "limit=%205", "limit=5.0", "limit=-5", "limit=", "cursor=not-ours"]) {
      const refused = await app.call("GET", `/locations/${HARBOR.locationId}/products?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    const five = (await app.call("GET", `/locations/${HARBOR.locationId}/products?limit=005`)).body as { products: Product[] };
    expect(five.products).toHaveLength(5);
  });

  it("lists popular available products, most popular first", async () => {
    const popular = (await app.call("GET", `/locations/${HARBOR.locationId}/products/popular?limit=3`)).body as { products: Product[] };
    const expected = demoCatalog.products
      .filter((product) => product.locationId === HARBOR.locationId && product.available !== false)
      .sort((a, b) => (b.popularity ?? 0) - (a.popularity ?? 0))
      .slice(0, 3)
      .map((product) => product.id);
    expect(popular.products.map((product) => product.id)).toEqual(expected);
    expect(popular.products.every((product) => product.available)).toBe(true);
  });

  it("reads one product with its modifier groups, and 404s another location's product", async () => {
    const chowder = await app.call("GET", `/locations/${HARBOR.locationId}/products/prd_hk_clam_chowder`);
    expect(chowder.body).toMatchObject({ price: "8.95", priceFormatted: "$8.95", modifierGroups: [{ minSelections: 1, maxSelections: 1 }] });
    expect((await app.call("GET", `/locations/${HARBOR.locationId}/products/prd_dg_hummus`)).status).toBe(404);
  });
});

describe("time intervals, gratuity, redirect", () => {
  it("lists bookable times per fulfilment method in the location's time zone", async () => {
    // The day before (bookable times reach 30 days ahead of the location's today).
    const saved = app.clock.now;
    app.clock.now = new Date("2099-01-04T12:00:00Z");
    const response = await app.call("GET", `/locations/${DUNE.locationId}/time-intervals?date=2099-01-05`).finally(() => (app.clock.now = saved));
    const body = response.body as {
      timeZone: string;
      methods: { fulfillmentMethod: string; times: { time: string; startsAt: string }[] }[];
    };
    expect(body.timeZone).toBe("Asia/Dubai");
    expect(body.methods.map((method) => method.fulfillmentMethod).sort()).toEqual(["room_service", "takeout"]);
    const takeout = body.methods.find((method) => method.fulfillmentMethod === "takeout");
    expect(takeout?.times[0]).toEqual({ time: "10:00", startsAt: "2099-01-05T10:00:00+04:00" });
    expect(takeout?.times.at(-1)?.time).toBe("22:45");
  });

  it("answers a date in the past with no bookable times", async () => {
    const body = (await app.call("GET", `/locations/${DUNE.locationId}/time-intervals?date=2001-01-01`)).body as { methods: { times: unknown[] }[] };
    expect(body.methods.every((method) => method.times.length === 0)).toBe(true);
  });

  it("describes the gratuity policy", async () => {
    const body = await app.call("GET", `/locations/${HARBOR.locationId}/gratuity`);
    expect(body.body).toMatchObject({ presets: [{ rate: "0.15", label: "15%" }, { rate: "0.18", label: "18%" }, { rate: "0.20", label: "20%" }], allowCustomAmount: true });
  });

  it("points at the location's storefront", async () => {
    const body = await app.call("GET", `/locations/${HARBOR.locationId}/redirect`);
    expect(body.body).toEqual({ locationId: HARBOR.locationId, slug: HARBOR.slug, url: "https://order.example.com/l/harbor-kitchen-downtown" });
  });
});
