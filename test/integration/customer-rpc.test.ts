import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../../server/routers";
import { freshEmail, latestCode } from "../customer-helpers";
import { createTestApp, HARBOR, idemKey, type TestApp } from "../harness";

/**
 * The typed RPC route, as the first-party storefront calls it: the same sign-in and customer
 * procedures as REST, with headers per call.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

function client(headers: () => Record<string, string>) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: "http://localhost/api/trpc",
        headers,
        fetch: (url, init) => app.fetch(new Request(url, init as RequestInit)),
      }),
    ],
  });
}

describe("customer procedures over typed RPC", () => {
  it("signs in with customer.login and customer.verifyOtp, then reads the profile, creates a cart and signs out", async () => {
    let headers: Record<string, string> = {};
    const rpc = client(() => headers);
    const email = freshEmail("rpc");

    headers = { "Idempotency-Key": idemKey() };
    const challenge = await rpc.customer.login.mutate({ merchantSlug: HARBOR.merchantSlug, identifierString: email });
    expect(challenge.delivery).toBe("email");
    headers = { "Idempotency-Key": idemKey() };
    const session = await rpc.customer.verifyOtp.mutate({ merchantSlug: HARBOR.merchantSlug, identifierString: email, methodId: challenge.methodId, otp: await latestCode(app, email), customerName: "Rae" });
    expect(session.customer).toMatchObject({ customerEmail: email, customerName: "Rae" });

    headers = { Authorization: `Bearer ${session.token}` };
    expect(await rpc.customer.get.query({})).toEqual(session.customer);
    expect(await rpc.customer.orders.query({ limit: 5 })).toEqual({ orders: [], nextCursor: null });

    headers = { Authorization: `Bearer ${session.token}`, "Idempotency-Key": idemKey() };
    const { cart } = await rpc.customer.createCart.mutate({ locationId: HARBOR.locationId, fulfillmentMethod: "takeout" });
    headers = { Authorization: `Bearer ${session.token}` };
    expect((await rpc.carts.get.query({ locationId: HARBOR.locationId, cartId: cart.id })).id).toBe(cart.id);

    headers = { Authorization: `Bearer ${session.token}`, "Idempotency-Key": idemKey() };
    expect(await rpc.customer.logout.mutate({})).toEqual({ loggedOut: true });
    headers = { Authorization: `Bearer ${session.token}` };
    const refused = await rpc.customer.get.query({}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).data?.appError).toMatchObject({ code: "UNAUTHORIZED" });
    expect((refused as TRPCClientError<AppRouter>).data?.httpStatus).toBe(401);
  });
});
