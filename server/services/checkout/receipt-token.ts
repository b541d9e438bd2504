import { createHmac } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../../db/client";
import { receipts } from "../../../db/schema";
import { hashToken, sameHash } from "../../security/tokens";

/**
 * The receipt capability handed to the cart's own credential: HMAC-SHA256 keyed by the cart
 * capability over the receipt id, so 256 bits no one can compute without the cart token, bound to
 * one receipt, and the same value every time that cart's holder asks for it (order-result may be
 * polled and retried). The server never holds it: the cart token exists only in the request, and
 * only the receipt token's SHA-256 is stored, the first time it is handed out.
 */
export function receiptCapability(cartToken: string, receiptId: string): string {
  return `rt_${createHmac("sha256", cartToken).update(`receipt:${receiptId}`).digest("base64url")}`;
}

/** Hands out the receipt capability for the cart token, recording its hash on first use. */
export async function issueReceiptCapability(db: Executor, receipt: { id: string; tokenHash: string | null }, cartToken: string): Promise<string | undefined> {
  const token = receiptCapability(cartToken, receipt.id);
  const hash = hashToken(token);
  if (receipt.tokenHash === null) {
    await db.update(receipts).set({ tokenHash: hash }).where(and(eq(receipts.id, receipt.id), isNull(receipts.tokenHash)));
    const [stored] = await db.select({ tokenHash: receipts.tokenHash }).from(receipts).where(eq(receipts.id, receipt.id));
    return stored?.tokenHash && sameHash(stored.tokenHash, hash) ? token : undefined;
  }
  return sameHash(receipt.tokenHash, hash) ? token : undefined;
}
