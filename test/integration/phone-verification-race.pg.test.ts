import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows";
import { bearer, freshPhone, latestCode, signIn } from "../customer-helpers";
import { createTestApp, idemKey, type TestApp } from "../harness";
import { holdInTransaction, untilLockWait } from "../lock-helpers";

/**
 * Confirming a phone number while a sign-in by that number creates its customer (verified): the
 * number's check passes before the sign-in commits, and the unique index on verified numbers then
 * refuses the confirmation's update. That is the same conflict as a number already taken: 409
 * PHONE_NUMBER_IN_USE, nothing changed (it was a 500). Deterministic: the test's transaction inserts
 * the other customer and commits once the confirmation's update waits on it. Postgres only.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("confirming a phone number that a sign-in is taking at the same moment", () => {
  it("answers 409 PHONE_NUMBER_IN_USE, and the code stays unused", async () => {
    const db = app.deps.database.db;
    const owner = await signIn(app);
    const phone = freshPhone();
    const started = await app.call("POST", "/customer/phone-verification", { headers: { ...bearer(owner.token), "Idempotency-Key": idemKey() }, body: { phoneNumber: phone } });
    expect(started.status, started.text).toBe(200);
    const { methodId } = started.body as { methodId: string };
    const otp = await latestCode(app, phone);
    const [ownerRow] = await queryRows<{ merchant_id: string }>(db, sql`select merchant_id from customers where id = ${owner.customer.id}`);

    const release = await holdInTransaction(
      db,
      sql`insert into customers (id, merchant_id, phone_number, phone_number_verified, created_at, updated_at)
          values (${`cust_race_${randomBytes(4).toString("hex")}`}, ${ownerRow?.merchant_id ?? ""}, ${phone}, true, now(), now())`,
    );
    const confirming = app.call("POST", "/customer/phone-verification/confirmation", { headers: { ...bearer(owner.token), "Idempotency-Key": idemKey() }, body: { phoneNumber: phone, methodId, otp } });
    await untilLockWait(db, '%update "customers"%');
    await release();
    const confirmed = await confirming;
    expect(confirmed.status, confirmed.text).toBe(409);
    expect(confirmed.body).toMatchObject({ code: "RESOURCE_CONFLICT", details: { reason: "PHONE_NUMBER_IN_USE" } });
    const [after] = await queryRows<{ phone_number_verified: boolean }>(db, sql`select phone_number_verified from customers where id = ${owner.customer.id}`);
    expect(after?.phone_number_verified).toBe(false);
    const [code] = await queryRows<{ status: string }>(db, sql`select status from otp_challenges where id = ${methodId}`);
    expect(code?.status).not.toBe("used");
  });
});
