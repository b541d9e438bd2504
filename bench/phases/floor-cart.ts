import { runFloorOperation, type FloorSql } from "../controls/floor-sql";
import { addItemBody, idempotencyKey } from "../scenarios/common";

/**
 * A cart of the floor (../controls/floor-sql.ts), called in-process like the service's in
 * ./cart-session.ts: opened by the floor's ordering session, then grown by its add item with the
 * current ETag as If-Match and a fresh key. Any status but the expected one throws.
 */
export async function openFloorCart(sql: FloorSql, locationId: string) {
  const call = async (operation: string, method: string, query: Record<string, string>, headers: Record<string, string>, bodyText: string, expectStatus: number) => {
    const request = { method, operation, query: new URLSearchParams(query), headers: new Headers(headers), bodyText, clientIp: "127.0.0.1", origin: "http://127.0.0.1" };
    const started = performance.now();
    const response = await runFloorOperation(sql, request);
    const ms = performance.now() - started;
    if (response.status !== expectStatus) throw new Error(`floor ${operation} answered ${response.status}: ${response.body.slice(0, 300)}`);
    return { ...response, ms };
  };
  const session = await call("floor-ordering-session", "POST", { locationId }, { "content-type": "application/json", "idempotency-key": idempotencyKey() }, JSON.stringify({ fulfillmentMethod: "takeout" }), 201);
  const { cart, cartAccessToken } = JSON.parse(session.body) as { cart: { id: string }; cartAccessToken: string };
  let etag = session.headers.etag ?? "";
  return {
    async addItem(variant: number): Promise<{ ms: number }> {
      const headers = { "content-type": "application/json", "x-cart-token": cartAccessToken, "if-match": etag, "idempotency-key": idempotencyKey() };
      const added = await call("floor-add-item", "POST", { locationId, cartId: cart.id }, headers, addItemBody(variant), 200);
      etag = added.headers.etag ?? "";
      return { ms: added.ms };
    },
    get() {
      return call("floor-cart", "GET", { locationId, cartId: cart.id }, { "x-cart-token": cartAccessToken }, "", 200);
    },
  };
}
