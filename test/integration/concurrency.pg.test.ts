import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directClient, holdCartLock, waitForBlockedBackends } from "../db-fault-helpers";
import { createTestApp, idemKey, type TestApp } from "../harness";
import { loadFixtures, prepareCart, burgerSelections } from "../routes";

/**
 * Races need real connections running in parallel: PGlite serialises everything, so these run
 * only on the real Postgres (this file is included by the integration-postgres project alone).
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await loadFixtures(app);
});
afterAll(async () => {
  await app.close();
});

const N = 12;

function cartUrl(cart: { locationId: string; cartId: string }) {
  return `/locations/${cart.locationId}/carts/${cart.cartId}`;
}

describe("optimistic concurrency on real Postgres", () => {
  it("N concurrent mutations with the same If-Match: exactly one success, N-1 CART_CONFLICT", async () => {
    const cart = await prepareCart(app);
    const before = await app.call("GET", cartUrl(cart), { headers: { "X-Cart-Token": cart.token } });
    const results = await Promise.all(
      Array.from({ length: N }, () =>
        app.call("POST", `${cartUrl(cart)}/items`, {
          headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": idemKey() },
          body: { productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" },
        }),
      ),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(N - 1);
    for (const result of results.filter((candidate) => candidate.status === 409)) {
      expect((result.body as { code: string }).code).toBe("CART_CONFLICT");
    }
    const after = await app.call("GET", cartUrl(cart), { headers: { "X-Cart-Token": cart.token } });
    const revisionBefore = (before.body as { revision: number }).revision;
    expect((after.body as { revision: number }).revision).toBe(revisionBefore + 1);
    expect((after.body as { totalQuantity: number }).totalQuantity).toBe((before.body as { totalQuantity: number }).totalQuantity + 1);
  });

  it("a change that loses its compare-and-set after its read (a writer committed between them) answers 409 CART_CONFLICT and stores nothing", async () => {
    const cart = await prepareCart(app);
    const revision = Number(/cart-(\d+)/.exec(cart.etag)?.[1]);
    const { direct, name } = await directClient(app.deps.database);
    try {
      // The request reads revision r (a plain read passes the row lock), then its UPDATE waits on the lock.
      const lock = await holdCartLock(direct, cart.cartId);
      const key = idemKey();
      const pending = app.call("POST", `${cartUrl(cart)}/items`, {
        headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key },
        body: { productId: "prd_hk_smash_burger", quantity: 1, selections: burgerSelections, itemUnavailableAction: "remove_item" },
      });
      await waitForBlockedBackends(direct, name, 1);
      // Another writer moves the cart on and commits: the waiting UPDATE now matches no row.
      await lock.commitRevisionBump();
      const lost = await pending;
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body).toMatchObject({ code: "CART_CONFLICT", details: { currentRevision: revision + 1 } });
      const stored = await direct`select 1 from idempotency_records where key = ${key}`;
      expect(stored).toHaveLength(0);
      const [row] = await direct<{ revision: string }[]>`select revision from carts where id = ${cart.cartId}`;
      expect(Number(row?.revision)).toBe(revision + 1);
    } finally {
      await direct.end();
    }
  });

  it("N concurrent identical requests with one Idempotency-Key execute once; the rest replay or wait", async () => {
    const cart = await prepareCart(app);
    const key = idemKey();
    const send = () =>
      app.call("POST", `${cartUrl(cart)}/items`, {
        headers: { "X-Cart-Token": cart.token, "If-Match": cart.etag, "Idempotency-Key": key },
        body: { productId: "prd_hk_smash_burger", quantity: 2, selections: burgerSelections, itemUnavailableAction: "remove_item" },
      });
    const results = await Promise.all(Array.from({ length: N }, send));
    const successes = results.filter((result) => result.status === 200);
    const inProgress = results.filter((result) => result.status === 409);
    expect(successes.length + inProgress.length).toBe(N);
    expect(successes.length).toBeGreaterThanOrEqual(1);
    for (const result of inProgress) expect((result.body as { code: string }).code).toBe("IDEMPOTENCY_IN_PROGRESS");
    for (const result of successes) expect(result.text).toBe(successes[0]?.text);
    // After the race, a retry replays the one stored outcome.
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(successes[0]?.text);
    const after = await app.call("GET", cartUrl(cart), { headers: { "X-Cart-Token": cart.token } });
    expect(after.headers.get("etag")).toBe(successes[0]?.headers.get("etag"));
  });

  it("N concurrent ordering sessions with one key create exactly one cart", async () => {
    const key = idemKey();
    const results = await Promise.all(
      Array.from({ length: N }, () =>
        app.call("POST", "/locations/loc_harbor_kitchen_downtown/ordering-sessions", { headers: { "Idempotency-Key": key }, body: { fulfillmentMethod: "takeout" } }),
      ),
    );
    const created = results.filter((result) => result.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const cartIds = new Set(created.map((result) => (result.body as { cart: { id: string } }).cart.id));
    expect(cartIds.size).toBe(1);
    for (const result of results.filter((candidate) => candidate.status !== 201)) {
      expect((result.body as { code: string }).code).toBe("IDEMPOTENCY_IN_PROGRESS");
    }
  });
});
