import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../customer-helpers";
import { createTestApp, HARBOR, type TestApp } from "../harness";

/**
 * Pagination cursors are client input: whatever a cursor decodes to, a cursor this API did not
 * issue is a 400 VALIDATION_ERROR naming the `cursor` parameter, never a value handed to the
 * database (which refuses out-of-range integers, NUL bytes and years outside its range with a 500).
 */
let app: TestApp;
let token: string;
beforeAll(async () => {
  app = await createTestApp();
  token = (await signIn(app)).token;
});
afterAll(async () => {
  await app.close();
});

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** Cursors of the right outline whose values the database refuses, and cursors of the wrong outline. */
export const hostileCursors: [string, string][] = [
  ["sort order past int4", b64([2 ** 31, "prd_x"])],
  ["sort order 1e10", b64([1e10, "prd_x"])],
  ["sort order 2^53+2", b64([2 ** 53 + 2, "prd_x"])],
  ["sort order 1.5", b64([1.5, "prd_x"])],
  ["NUL in the id", b64([1, "a\u0000b"])],
  ["NUL in the id of a time cursor", b64(["2020-01-01T00:00:00.000Z", "a\u0000b"])],
  ["lone surrogate in the id", b64(["2020-01-01T00:00:00.000Z", "a\uD800b"])],
  ["id of 129 characters", b64(["2020-01-01T00:00:00.000Z", "x".repeat(129)])],
  ["year +275760", b64(["+275760-09-13T00:00:00.000Z", "ord_x"])],
  ["year -271821", b64(["-271821-04-20T00:00:00.000Z", "ord_x"])],
  ["year 0", b64(["0000-01-01T00:00:00.000Z", "ord_x"])],
  ["February 30th", b64(["2021-02-30T00:00:00.000Z", "ord_x"])],
  ["a date without time", b64(["2020-01-01", "ord_x"])],
  ["an object", b64({ at: "2020-01-01T00:00:00.000Z", id: "x" })],
  ["three elements", b64([1, "x", 2])],
  ["null", b64("null")],
  ["not JSON", b64("[1,")],
  ["not base64url", "!!!"],
  ["empty id", b64([1, ""])],
];

const endpoints: [string, (cursor: string) => Promise<{ status: number; body: unknown }>][] = [
  ["anonymous products list", (cursor) => app.call("GET", `/locations/${HARBOR.locationId}/products?limit=2&cursor=${encodeURIComponent(cursor)}`)],
  ["customer orders", (cursor) => app.call("GET", `/customer/orders?cursor=${encodeURIComponent(cursor)}`, { headers: bearer(token) })],
  ["loyalty ledger", (cursor) => app.call("GET", `/customer/locations/${HARBOR.locationId}/loyalty/ledger?cursor=${encodeURIComponent(cursor)}`, { headers: bearer(token) })],
];

describe.each(endpoints)("%s", (_name, read) => {
  it.each(hostileCursors)("refuses a cursor it did not issue (%s) with 400 naming the cursor", async (_label, cursor) => {
    const response = await read(cursor);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fields: [{ path: "cursor" }] } });
  });
});

describe("issued cursors", () => {
  it("page through the products list", async () => {
    const first = await app.call("GET", `/locations/${HARBOR.locationId}/products?limit=2`);
    const page = first.body as { products: { id: string }[]; nextCursor: string | null };
    expect(page.nextCursor).not.toBeNull();
    const second = await app.call("GET", `/locations/${HARBOR.locationId}/products?limit=2&cursor=${page.nextCursor ?? ""}`);
    expect(second.status).toBe(200);
    const next = second.body as { products: { id: string }[] };
    expect(next.products.map((product) => product.id)).not.toContain(page.products[0]?.id);
  });
});
