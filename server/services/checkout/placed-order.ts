import type { orders } from "../../../db/schema";

/** An order as the finalizer created it, as order hooks (./order-hooks.ts) and their handlers receive it. */
export type PlacedOrder = typeof orders.$inferSelect;
