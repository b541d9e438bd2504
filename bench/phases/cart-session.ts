import type { InProcessApp } from "../query-count";
import { addItemBody, idempotencyKey } from "../scenarios/common";

/** A cart opened through the in-process REST handler, with an add-item that keeps its ETag current. */
export async function openCart(app: InProcessApp, locationId: string) {
  const session = await app.call("POST", `/locations/${locationId}/ordering-sessions`, 201, { "content-type": "application/json", "idempotency-key": idempotencyKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }));
  const { cart, cartAccessToken } = JSON.parse(session.text) as { cart: { id: string }; cartAccessToken: string };
  const path = `/locations/${locationId}/carts/${cart.id}/items`;
  let etag = session.etag;
  return {
    cartId: cart.id,
    cartAccessToken,
    /** The exact request, so a caller can replay it (same key, same If-Match, same body). */
    addItemRequest(variant: number, key = idempotencyKey()) {
      return { path, headers: { "content-type": "application/json", "x-cart-token": cartAccessToken, "if-match": etag, "idempotency-key": key }, body: addItemBody(variant) };
    },
    async addItem(variant: number) {
      const request = this.addItemRequest(variant);
      const result = await app.call("POST", request.path, 200, request.headers, request.body);
      etag = result.etag;
      return result;
    },
    setEtag(value: string) {
      etag = value;
    },
    get() {
      return app.call("GET", `/locations/${locationId}/carts/${cart.id}`, 200, { "x-cart-token": cartAccessToken });
    },
  };
}
