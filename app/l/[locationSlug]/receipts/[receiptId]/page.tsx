import type { Metadata } from "next";
import { CustomerReceipt } from "@/app/_storefront/components/CustomerReceipt";

export const metadata: Metadata = {
  title: "Your receipt",
  description: "A receipt from your order history.",
  // A receipt belongs to one customer: keep it out of search engines.
  robots: { index: false, follow: false },
};

/** A receipt from the account's history: opened with the signed-in customer's token (kept on the device). */
export default async function ReceiptPage(props: { params: Promise<{ locationSlug: string; receiptId: string }> }) {
  const { locationSlug, receiptId } = await props.params;
  return <CustomerReceipt locationSlug={locationSlug} receiptId={receiptId} />;
}
