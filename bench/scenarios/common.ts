import { randomUUID } from "node:crypto";
import type { RequestSpec } from "../load";
import type { ScenarioContext } from "./types";

export const BENCH_LOCATION_ID = "loc_harbor_kitchen_downtown";

/** A fresh Idempotency-Key (the spec's pattern: 16-128 of A-Z a-z 0-9 . _ : -). */
export function idempotencyKey(): string {
  return `bench:${randomUUID()}`;
}

export type BenchCart = { cartId: string; token: string; etag: string };

/**
 * A Double Smash Burger with its required side and one topping, so every add exercises modifier
 * validation and pricing. `variant` goes into the special instructions: different variants are
 * different lines, the same variant merges into its line (quantity + 1).
 */
export function addItemBody(variant: number): string {
  return JSON.stringify({
    productId: "prd_hk_smash_burger",
    quantity: 1,
    selections: [
      { modifierGroupId: "mg_hk_smash_burger_side", optionId: "opt_hk_smash_burger_fries" },
      { modifierGroupId: "mg_hk_smash_burger_extra_toppings", optionId: "opt_hk_smash_burger_bacon" },
    ],
    itemUnavailableAction: "remove_item",
    specialInstructions: `bench line ${variant}`,
  });
}

export function addItemRequest(context: ScenarioContext, cart: BenchCart, variant: number): RequestSpec {
  return {
    method: "POST",
    path: context.subject.paths.addItem(context.locationId, cart.cartId),
    headers: {
      "content-type": "application/json",
      "x-cart-token": cart.token,
      "if-match": cart.etag,
      "idempotency-key": idempotencyKey(),
    },
    body: addItemBody(variant),
    expectStatus: 200,
  };
}

export function orderingSessionRequest(context: ScenarioContext): RequestSpec {
  return {
    method: "POST",
    path: context.subject.paths.orderingSession(context.locationId),
    headers: { "content-type": "application/json", "idempotency-key": idempotencyKey() },
    body: JSON.stringify({ fulfillmentMethod: "takeout" }),
    expectStatus: 201,
  };
}

async function sendExpecting(context: ScenarioContext, spec: RequestSpec) {
  const response = await context.http.send(spec);
  if (response.status !== spec.expectStatus) {
    throw new Error(`${context.subject.label} setup ${spec.method} ${spec.path}: ${response.status} ${response.body.slice(0, 300)}`);
  }
  return response;
}

/** Untimed: a new cart through the subject itself, with `lines` distinct lines. */
export async function startCart(context: ScenarioContext, lines = 0): Promise<BenchCart> {
  const response = await sendExpecting(context, orderingSessionRequest(context));
  const body = JSON.parse(response.body) as { cart: { id: string }; cartAccessToken: string };
  const cart: BenchCart = { cartId: body.cart.id, token: body.cartAccessToken, etag: String(response.headers.etag ?? "") };
  for (let line = 0; line < lines; line += 1) {
    const added = await sendExpecting(context, addItemRequest(context, cart, line));
    cart.etag = String(added.headers.etag ?? "");
  }
  return cart;
}

/** Untimed: the cart's current ETag, after a failed mutation left ours in doubt. */
export async function refreshEtag(context: ScenarioContext, cart: BenchCart): Promise<void> {
  const response = await sendExpecting(context, {
    method: "GET",
    path: context.subject.paths.cart(context.locationId, cart.cartId),
    headers: { "x-cart-token": cart.token },
    expectStatus: 200,
  });
  cart.etag = String(response.headers.etag ?? "");
}
