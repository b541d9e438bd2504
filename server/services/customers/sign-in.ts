import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client";
import { customers } from "../../../db/schema";
import { normalisePhoneNumber, parseSignInIdentifier, type SignInIdentifier } from "../../domain/identifiers";
import { AppError, validationError } from "../../errors";
import type { CustomerSessionView, LoginChallengeView } from "../../schemas/customer";
import { newId } from "../../security/tokens";
import type { CommittingWrite, TransactionalWrite } from "../operation-context";
import { checkChallenge, issueChallenge, markUsed, requireDeliverable } from "./challenges";
import { findMerchantBySlug, type SignInMerchant } from "./merchant";
import type { CustomerRow } from "./principal";
import { startSession } from "./sessions";
import { toCustomerView } from "./view";

export type LoginInput = { merchantSlug: string; identifierString: string };

function parseIdentifier(merchant: SignInMerchant, input: string): SignInIdentifier {
  const identifier = parseSignInIdentifier(input, merchant.country);
  if (!identifier) {
    throw validationError("identifierString must be an e-mail address or a phone number", [
      { path: "identifierString", message: "not an e-mail address or a valid phone number" },
    ]);
  }
  return identifier;
}

/**
 * POST /customer/auth/login: sends a one-time code. Whether a customer with this identifier exists
 * is never looked at: a challenge is created and a code sent either way (the customer is created
 * when the code is proven), so the answer reveals nothing. An idempotent replay answers the stored
 * methodId and sends nothing (the stored response holds no code).
 */
export async function login(ctx: TransactionalWrite, input: LoginInput): Promise<LoginChallengeView> {
  const { tx } = ctx;
  const merchant = await findMerchantBySlug(tx, input.merchantSlug);
  const identifier = parseIdentifier(merchant, input.identifierString);
  const challenge = await issueChallenge(tx, ctx, { merchant, purpose: "login", identifier, customerId: null, field: "identifierString" });
  Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
  return challenge;
}

export type VerifyInput = LoginInput & {
  methodId: string;
  otp: string;
  customerName?: string | undefined;
  lastName?: string | undefined;
  phoneNumber?: string | undefined;
};

/**
 * POST /customer/auth/verify-otp: proves the code and answers a merchant-bound session token. The
 * request is validated in full first (a malformed profile field must not spend an attempt), then
 * the code is checked (its bookkeeping commits on its own, see checkChallenge), then one
 * transaction marks the code used, finds or creates the customer of this merchant, applies the
 * profile fields and opens the session. A retry with the same Idempotency-Key replays the answer.
 */
export async function verifyOtp(ctx: CommittingWrite, input: VerifyInput): Promise<CustomerSessionView> {
  const db = ctx.deps.database.db;
  const merchant = await findMerchantBySlug(db, input.merchantSlug);
  const identifier = parseIdentifier(merchant, input.identifierString);
  const profilePhone = input.phoneNumber === undefined ? undefined : normalisePhoneNumber(input.phoneNumber, merchant.country);
  if (input.phoneNumber !== undefined && !profilePhone) {
    throw validationError("phoneNumber is not a valid phone number", [{ path: "phoneNumber", message: "not a valid phone number" }]);
  }
  requireDeliverable(ctx, identifier, "identifierString");

  const challenge = await checkChallenge(ctx, { merchantId: merchant.id, purpose: "login", identifier, customerId: null, methodId: input.methodId, code: input.otp });

  return ctx.commit(async (tx) => {
    const now = ctx.deps.now();
    await markUsed(tx, challenge.id, now);
    const found = await findOrCreateCustomer(tx, merchant.id, identifier, now);
    const customer = await applyProfile(tx, found, { customerName: input.customerName, lastName: input.lastName, phoneNumber: profilePhone }, now);
    const token = await startSession(tx, ctx.deps, customer);
    Object.assign(ctx.response.headers, { "cache-control": "private, no-store" });
    return { token, customer: toCustomerView(customer) };
  });
}

/** The merchant's customer with this e-mail address or verified phone number, created on first sign-in. */
async function findOrCreateCustomer(tx: Tx, merchantId: string, identifier: SignInIdentifier, now: Date): Promise<CustomerRow> {
  const match =
    identifier.channel === "email"
      ? and(eq(customers.merchantId, merchantId), eq(customers.email, identifier.value))
      : and(eq(customers.merchantId, merchantId), eq(customers.phoneNumber, identifier.value), eq(customers.phoneNumberVerified, true));
  const [existing] = await tx.select().from(customers).where(match);
  if (existing) return existing;
  const identity = identifier.channel === "email" ? { email: identifier.value } : { phoneNumber: identifier.value, phoneNumberVerified: true };
  await tx
    .insert(customers)
    .values({ id: newId("cust"), merchantId, ...identity, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [created] = await tx.select().from(customers).where(match);
  if (!created) throw new Error("customer insert returned no row");
  return created;
}

type ProfileFields = { customerName?: string | undefined; lastName?: string | undefined; phoneNumber?: string | undefined };

/**
 * Profile fields sent with the code. A phone number is stored unverified; a verified number is
 * changed only by verifying the new one, so a different number here is 409 (and the whole sign-in
 * rolls back: the code stays usable for a corrected request).
 */
async function applyProfile(tx: Tx, customer: CustomerRow, fields: ProfileFields, now: Date): Promise<CustomerRow> {
  const patch: Partial<CustomerRow> = {};
  if (fields.customerName !== undefined) patch.customerName = fields.customerName;
  if (fields.lastName !== undefined) patch.lastName = fields.lastName;
  if (fields.phoneNumber !== undefined && fields.phoneNumber !== customer.phoneNumber) {
    if (customer.phoneNumberVerified) {
      throw new AppError("RESOURCE_CONFLICT", "This customer's phone number is verified; change it with phone verification", {
        details: { reason: "PHONE_NUMBER_VERIFIED" },
      });
    }
    patch.phoneNumber = fields.phoneNumber;
  }
  if (Object.keys(patch).length === 0) return customer;
  const [updated] = await tx
    .update(customers)
    .set({ ...patch, updatedAt: now })
    .where(eq(customers.id, customer.id))
    .returning();
  return updated ?? customer;
}
