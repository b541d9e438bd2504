import { and, eq, isNull } from "drizzle-orm";
import { customers } from "../../../db/schema";
import type { AppDeps } from "../../app/deps";
import { processorCall } from "../checkout/processor-calls";

/**
 * The card processor's customer for one of ours, created the first time they pay (outside any
 * transaction: it is a processor call) and recorded on the customer. The idempotency key is derived
 * from our customer id, so a crash between creating and recording finds the same one again.
 * Undefined when the cart names no customer we know: the payment goes ahead without saving the card.
 */
export async function processorCustomerOf(deps: AppDeps, customerId: string): Promise<string | undefined> {
  const db = deps.database.db;
  const [customer] = await db.select({ email: customers.email, known: customers.processorCustomerId }).from(customers).where(eq(customers.id, customerId));
  if (!customer) return undefined;
  const id = await processorCall(() =>
    deps.payments.cards.ensureCustomer({ customerId, email: customer.email, known: customer.known, idempotencyKey: `${customerId}:processor-customer` }),
  );
  if (id === customer.known) return id;
  await db.update(customers).set({ processorCustomerId: id }).where(and(eq(customers.id, customerId), isNull(customers.processorCustomerId)));
  const [stored] = await db.select({ id: customers.processorCustomerId }).from(customers).where(eq(customers.id, customerId));
  return stored?.id ?? id;
}
