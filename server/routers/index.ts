import { router } from "../trpc/init";
import { cartsRouter } from "./carts";
import { catalogRouter } from "./catalog";
import { checkoutRouter } from "./checkout";
import { customerRouter } from "./customer";
import { receiptsRouter } from "./receipts";

export const appRouter = router({
  catalog: catalogRouter,
  carts: cartsRouter,
  checkout: checkoutRouter,
  receipts: receiptsRouter,
  customer: customerRouter,
});

/** The type the first-party storefront's typed client is built from. */
export type AppRouter = typeof appRouter;
