import { notFound } from "../../errors";
import type { SavedCard } from "../../integrations/payments/types";
import type { RequestContext } from "../../app/request-context";
import { processorCall } from "../checkout/processor-calls";
import type { CommittingWrite } from "../operation-context";
import { authenticateCustomer } from "./principal";

/**
 * GET /customer/saved-payments: the cards saved at the card processor for this customer (saved by
 * paying while signed in): brand, last 4 digits and expiry, nothing more. A customer who never paid
 * has none. With Stripe configured they are read from Stripe; with the simulated processor, from
 * its in-memory ledger (so they last as long as the process).
 */
export async function listSavedPayments(ctx: RequestContext): Promise<{ paymentMethods: SavedCard[] }> {
  const principal = await authenticateCustomer(ctx);
  const ref = principal.customer.processorCustomerId;
  const cards = ref ? await processorCall(() => ctx.deps.payments.cards.listCards(ref)) : [];
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return { paymentMethods: cards.map(({ id, brand, last4, expMonth, expYear }) => ({ id, brand, last4, expMonth, expYear })) };
}

/**
 * DELETE /customer/saved-payments/{paymentId}: detaches the card from the customer at the processor.
 * A card that is not one of this customer's (another customer's, unknown, already removed) is 404:
 * whether someone else's card exists is not revealed. The processor call happens outside any
 * transaction; the outcome is then stored for the Idempotency-Key, and a retry replays it.
 */
export async function deleteSavedPayment(ctx: CommittingWrite, paymentId: string): Promise<{ id: string; deleted: true }> {  const principal = await authenticateCustomer(ctx);
  const ref = principal.customer.processorCustomerId;
  const detached = ref ? await processorCall(() => ctx.deps.payments.cards.detachCard({ processorCustomerId: ref, paymentMethodId: paymentId })) : false;
  if (!detached) throw notFound("Saved payment method");
  return ctx.commit(() => {
    Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
    return Promise.resolve({ id: paymentId, deleted: true as const });
  });
}
