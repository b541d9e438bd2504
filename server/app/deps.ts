import type { DatabaseHandle } from "../../db/client";
import type { Env } from "../env";
import type { ResponseCache } from "../http/response-cache";
import type { CatalogCache } from "../services/catalog-cache";
import type { RenderedCarts } from "../services/rendered-carts";
import type { KeptCartLines } from "../services/kept-cart-lines";
import type { Courier } from "../integrations/courier/types";
import type { OtpDelivery } from "../integrations/otp-delivery/types";
import type { PaymentProcessor } from "../integrations/payments/types";
import type { RateLimiter } from "../integrations/rate-limit/types";

/** Everything a request may use, built once per process (or per test) and passed in explicitly. */
export type AppDeps = {
  env: Env;
  database: DatabaseHandle;
  rateLimiter: RateLimiter;
  /** Card processor: Stripe when configured, else the simulated one. */
  payments: PaymentProcessor;
  /** Delivery quotes (PARTNER_DRIVE): the HTTP courier when configured, else the simulated one. */
  courier: Courier;
  /** One-time sign-in codes: SMTP when configured, else the development outbox. */
  otpDelivery: OtpDelivery;
  /** Anonymous catalog reads kept in memory for RESPONSE_CACHE_TTL_MS (server/http/response-cache.ts). */
  responseCache: ResponseCache;
  /** Product rows keyed by their catalog revision, for cart mutations (server/services/catalog-cache.ts). */
  catalogCache: CatalogCache;
  /** GET cart's views, reused while their row and location revisions are unchanged (server/services/rendered-carts.ts). */
  renderedCarts: RenderedCarts;
  /** The lines of the carts this process last wrote, at the row version written (server/services/kept-cart-lines.ts). */
  keptCartLines: KeptCartLines;
  /** Injected so that tests can move time (cart expiry, quotes, schedules). */
  now: () => Date;
};
