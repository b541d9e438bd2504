import type { LoadClient } from "../load";
import { addItemRequest, refreshEtag, startCart, type BenchCart } from "./common";
import type { Scenario, ScenarioContext } from "./types";

/** Distinct lines per cart: the cart grows to this size, then each add merges into a line. */
export const ADD_ITEM_LINES = 5;
/** Adds per cart before the client moves to a fresh one: keeps every line under the 99 quantity cap. */
export const ADDS_PER_CART = 400;

async function addItemClient(context: ScenarioContext): Promise<LoadClient> {
  let cart: BenchCart = await startCart(context);
  let adds = 0;
  let stale = false;
  return {
    next: async () => {
      if (adds >= ADDS_PER_CART) {
        cart = await startCart(context);
        adds = 0;
        stale = false;
      } else if (stale) {
        await refreshEtag(context, cart);
        stale = false;
      }
      return addItemRequest(context, cart, adds % ADD_ITEM_LINES);
    },
    onResponse: (response, ok) => {
      if (ok) {
        cart.etag = String(response.headers.etag ?? "");
        adds += 1;
      } else {
        stale = true;
      }
    },
  };
}

export const addItemScenario: Scenario = {
  id: "add-item",
  title: "add item",
  description:
    `POST a burger with two modifiers to the client's own cart with its current ETag as If-Match and a fresh Idempotency-Key. ` +
    `Lines cycle through ${ADD_ITEM_LINES} configurations, so the cart holds 1..${ADD_ITEM_LINES} lines and later adds raise a line's quantity; ` +
    `after ${ADDS_PER_CART} adds the client switches to a fresh cart created untimed.`,
  createClients: async (context, count) => Promise.all(Array.from({ length: count }, () => addItemClient(context))),
};
