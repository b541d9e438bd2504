import type { Tx } from "../../../db/client";
import type { PlacedOrder } from "./placed-order";
import type { AppDeps } from "../../app/deps";
import { awardLoyaltyPoints } from "../customers/loyalty";


/**
 * A side effect of an order being paid (loyalty points, customer history, notifications). Hooks run
 * inside the finalizer's transaction that creates the order, so each runs exactly once per order
 * and commits or rolls back with it. They must not call outside services: record an outbox row.
 */
export type OrderCompletedHook = (tx: Tx, order: PlacedOrder, deps: AppDeps) => Promise<void>;

/** The one list of order-completion side effects; later features add their hook here. */
export const orderCompletedHooks: readonly OrderCompletedHook[] = [awardLoyaltyPoints];
