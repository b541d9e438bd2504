import type { CustomerView } from "../../schemas/customer";
import type { CustomerRow } from "./principal";

/** The spec's Customer: every field a string (empty when unknown) except phoneNumberVerified. */
export function toCustomerView(customer: CustomerRow): CustomerView {
  return {
    id: customer.id,
    profilePicture: customer.profilePicture,
    customerEmail: customer.email ?? "",
    customerName: customer.customerName,
    lastName: customer.lastName,
    phoneNumber: customer.phoneNumber ?? "",
    phoneNumberVerified: customer.phoneNumberVerified,
  };
}
