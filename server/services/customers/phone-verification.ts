import { and, eq, ne } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { customers } from "../../../db/schema";
import { normalisePhoneNumber } from "../../domain/identifiers";
import { AppError, validationError } from "../../errors";
import type { CustomerSessionView } from "../../schemas/customer";
import type { CommittingWrite, TransactionalWrite } from "../operation-context";
import { violatesUnique } from "../../../db/unique-violation";
import { checkChallenge, issueChallenge, markUsed } from "./challenges";
import { findMerchantById, type SignInMerchant } from "./merchant";
import { authenticateCustomer } from "./principal";
import { renewToken } from "./sessions";
import { toCustomerView } from "./view";

function parsePhone(merchant: SignInMerchant, input: string): string {
  const phone = normalisePhoneNumber(input, merchant.country);
  if (!phone) throw validationError("phoneNumber is not a valid phone number", [{ path: "phoneNumber", message: "not a valid phone number" }]);
  return phone;
}

/** A number is verified by at most one customer per merchant (it is also their sign-in identity). */
async function requireNumberFree(tx: Tx, merchantId: string, phone: string, customerId: string): Promise<void> {
  const [taken] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.merchantId, merchantId), eq(customers.phoneNumber, phone), eq(customers.phoneNumberVerified, true), ne(customers.id, customerId)))
    .limit(1);
  if (taken) throw phoneNumberInUse();
}

const phoneNumberInUse = () => new AppError("RESOURCE_CONFLICT", "This phone number is already verified on another account at this merchant", { details: { reason: "PHONE_NUMBER_IN_USE" } });

/**
 * POST /customer/phone-verification: sends a code by SMS to the number the signed-in customer wants
 * to verify. Whether the number is verified on another account is decided only after the code is
 * proven (confirmPhoneVerification): answering 409 here would tell any signed-in customer which
 * numbers have accounts, without a code and with no limit but the per-address one.
 */
export async function startPhoneVerification(ctx: TransactionalWrite, input: { phoneNumber: string }): Promise<{ methodId: string }> {
  const { tx } = ctx;
  const principal = await authenticateCustomer(ctx, tx);
  const merchant = await findMerchantById(tx, principal.merchantId);
  const phone = parsePhone(merchant, input.phoneNumber);
  if (principal.customer.phoneNumberVerified && principal.customer.phoneNumber === phone) {
    throw new AppError("RESOURCE_CONFLICT", "This phone number is already verified", { details: { reason: "ALREADY_VERIFIED" } });
  }
  const challenge = await issueChallenge(tx, ctx, {
    merchant,
    purpose: "phone_verification",
    identifier: { channel: "sms", value: phone },
    customerId: principal.customerId,
    field: "phoneNumber",
  });
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return { methodId: challenge.methodId };
}

/**
 * POST /customer/phone-verification/confirmation: proves the code (same rules as sign-in: attempts,
 * expiry, single use, per-identifier limits; the code works only for the customer who asked), then
 * records the number as verified and answers the customer with a fresh token for the same session.
 */
export async function confirmPhoneVerification(ctx: CommittingWrite, input: { phoneNumber: string; methodId: string; otp: string }): Promise<CustomerSessionView> {
  const principal = await authenticateCustomer(ctx);
  const merchant = await findMerchantById(ctx.deps.database.db, principal.merchantId);
  const phone = parsePhone(merchant, input.phoneNumber);
  const challenge = await checkChallenge(ctx, {
    merchantId: merchant.id,
    purpose: "phone_verification",
    identifier: { channel: "sms", value: phone },
    customerId: principal.customerId,
    methodId: input.methodId,
    code: input.otp,
  });

  return ctx.commit(async (tx) => {
    // Nothing outside has happened yet: a logout since the checks above stops this (held until the commit).
    await authenticateCustomer(ctx, tx);
    const now = ctx.deps.now();
    await markUsed(tx, challenge.id, now);
    await requireNumberFree(tx, merchant.id, phone, principal.customerId);
    // A sign-in by this number may create its customer, verified, after the check above: the unique
    // index then refuses this update, which is the same conflict.
    const [updated] = await tx
      .update(customers)
      .set({ phoneNumber: phone, phoneNumberVerified: true, updatedAt: now })
      .where(eq(customers.id, principal.customerId))
      .returning()
      .catch((error: unknown) => {
        throw violatesUnique(error, "customers_merchant_verified_phone_idx") ? phoneNumberInUse() : error;
      });
    if (!updated) throw new Error("the signed-in customer vanished");
    const token = await renewToken(ctx.deps, principal);
    Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
    return { token, customer: toCustomerView(updated) };
  });
}
