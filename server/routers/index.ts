import { getEnv } from "../env";
import { router } from "../trpc/init";
import { setResponseValidation } from "../trpc/response-validation";
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

/**
 * Configured where it is built: Next.js may bundle this module into more than one server chunk
 * (route handlers, instrumentation), and each copy must check responses as the process is configured.
 */
setResponseValidation(responseValidationConfigured());

function responseValidationConfigured(): boolean {
  try {
    return getEnv().VALIDATE_RESPONSES;
  } catch {
    // An invalid configuration stops start-up elsewhere (instrumentation.ts); until then, check.
    return true;
  }
}

/** The type the first-party storefront's typed client is built from. */
export type AppRouter = typeof appRouter;
