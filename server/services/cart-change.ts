import type { Tx } from "../../db/client";
import type { CartRow } from "./cart-access";
import type { LocationWithMerchant } from "./locations";

/** What a cart change sees: the transaction, the cart it holds locked by revision, its location, the time. */
export type MutationScope = { tx: Tx; cart: CartRow; location: LocationWithMerchant; now: Date };

/** The fields a cart change may set; mutateCart (./carts.ts) re-prices and writes them. */
export type CartChange = Partial<Pick<CartRow, "lines" | "discount" | "gratuity" | "pickupType" | "orderDate" | "orderTime" | "status" | "courierTipMinor" | "deliveryInfo" | "tableServiceInfo" | "roomServiceInfo" | "deliveryQuote" | "lockedAt" | "catalogRevision" | "policyRevision" | "catalogRevalidation">>;
