import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../customer-helpers";
import { hostileCursors } from "../fuzz-variants";
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
