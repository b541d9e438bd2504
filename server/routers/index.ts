import { router } from "../trpc/init";
import { cartsRouter } from "./carts";
import { catalogRouter } from "./catalog";

export const appRouter = router({
  catalog: catalogRouter,
  carts: cartsRouter,
});

/** The type the first-party storefront's typed client is built from. */
export type AppRouter = typeof appRouter;
