import { startCart } from "./common";
import type { Scenario } from "./types";

export const CART_READ_LINES = 3;

export const cartScenario: Scenario = {
  id: "cart",
  title: "GET cart",
  description: `GET the client's own cart (${CART_READ_LINES} lines) with its X-Cart-Token.`,
  createClients: async (context, count) => {
    const carts = await Promise.all(Array.from({ length: count }, () => startCart(context, CART_READ_LINES)));
    return carts.map((cart) => ({
      next: () => ({
        method: "GET" as const,
        path: context.subject.paths.cart(context.locationId, cart.cartId),
        headers: { "x-cart-token": cart.token },
        expectStatus: 200,
      }),
    }));
  },
};
