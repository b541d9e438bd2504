import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carts } from "../../db/schema";
import type { Courier } from "../../server/integrations/courier/types";
import { bearer, signIn, startCustomerCart } from "../customer-helpers";
import { createTestApp, idemKey, mutate, type TestApp } from "../harness";
import { deliveryAddressNearHarbor } from "../routes";

/**
 * A write that calls an outside service between its checks and its transaction checks the
 * customer's session again inside that transaction (server/services/cart-preflight.ts): a logout
 * that commits while the courier is quoting stops the write. The session read before the call must
 * not stand in for the one in the transaction.
 */
let app: TestApp;
/** Run while the courier is quoting, then cleared. */
let duringQuote: (() => Promise<void>) | undefined;

function courierWithHook(inner: Courier): Courier {
  return {
    name: inner.name,
    async quote(request) {
      const hook = duringQuote;
      duringQuote = undefined;
      if (hook) await hook();
      return inner.quote(request);
    },
    acceptQuote: (request) => inner.acceptQuote(request),
  };
}

beforeAll(async () => {
  app = await createTestApp({ overrides: (deps) => ({ courier: courierWithHook(deps.courier) }) });
});
afterAll(async () => {
  await app.close();
});

describe("a customer who signs out while the courier quotes", () => {
  it("gets 401 for the delivery address, and the cart keeps no delivery", async () => {
    const { token } = await signIn(app);
    const cart = await startCustomerCart(app, token, undefined, "delivery");
    duringQuote = async () => {
      const out = await app.call("DELETE", "/customer/logout", { headers: { ...bearer(token), "Idempotency-Key": idemKey() } });
      expect(out.status, out.text).toBe(200);
    };
    const response = await mutate(app, cart, "PUT", "/set-delivery", deliveryAddressNearHarbor);
    expect(duringQuote).toBeUndefined();
    expect(response.status, response.text).toBe(401);
    const [row] = await app.deps.database.db.select().from(carts).where(eq(carts.id, cart.cartId));
    expect(row?.deliveryInfo ?? null).toBeNull();
    expect(row?.revision).toBe(0);
  });
});
