import type { PaymentConfigView } from "../../schemas/checkout";
import type { RequestContext } from "../../app/request-context";
import { findLocation } from "../locations";

/**
 * GET /locations/{locationId}/payment-config: how a storefront takes card payments here. Public
 * by nature (a publishable key is meant for browsers); per location so that an unknown location is
 * a 404 like every other location read, and so that per-merchant accounts can be added later.
 */
export async function getPaymentConfig(ctx: RequestContext, locationId: string): Promise<PaymentConfigView> {
  await findLocation(ctx.deps.database.db, locationId, { allowSlug: false });
  const processor = ctx.deps.payments.name;
  // A publishable key only helps when Stripe really is the processor (env.ts also insists on it).
  return { processor, publishableKey: processor === "stripe" ? (ctx.deps.env.STRIPE_PUBLISHABLE_KEY ?? null) : null };
}
