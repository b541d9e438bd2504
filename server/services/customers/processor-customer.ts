import { and, eq, isNull } from "drizzle-orm";
import { customers } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { keptUnderKey, processorCall } from "../checkout/processor-calls";
import { logger } from "../../log";

/**
 * The card processor's customer for one of ours, created the first time they pay (outside any
 * transaction: it is a processor call) and recorded on the customer. The idempotency key is derived
 * from our customer id, so a crash between creating and recording finds the same one again.
 * Undefined when the cart names no customer we know, or when the processor answered the creation with
 * a server error it keeps under the key: the payment goes ahead without saving the card.
 */
export async function processorCustomerOf(deps: AppDeps, customerId: string): Promise<string | undefined> {
  const db = deps.database.db;
  const [customer] = await db.select({ email: customers.email, known: customers.processorCustomerId }).from(customers).where(eq(customers.id, customerId));
  if (!customer) return undefined;
  let id: string;
  try {
    id = await processorCall(() => deps.payments.cards.ensureCustomer({ customerId, email: customer.email, known: customer.known, idempotencyKey: `${customerId}:processor-customer` }));
  } catch (error) {
    // A server error the processor keeps under this key is all the key will get for a day, and the key
    // must stay the same to find a customer made before a crash: pay now without saving the card.
    if (!keptUnderKey(error)) throw error;
    logger.warn({ customerId, err: error }, "the card processor keeps failing to create this customer: paying without saving the card");
    return undefined;
  }
  if (id === customer.known) return id;
  await db.update(customers).set({ processorCustomerId: id }).where(and(eq(customers.id, customerId), isNull(customers.processorCustomerId)));
  const [stored] = await db.select({ id: customers.processorCustomerId }).from(customers).where(eq(customers.id, customerId));
  return stored?.id ?? id;
}
