import type { CustomerView } from "../../schemas/customer";
import type { RequestContext } from "../../app/request-context";
import { authenticateCustomer } from "./principal";
import { toCustomerView } from "./view";

/** GET /customer: the signed-in customer's profile. */
export async function getCustomerProfile(ctx: RequestContext): Promise<CustomerView> {
  const principal = await authenticateCustomer(ctx);
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return toCustomerView(principal.customer);
}
