import type { Metadata } from "next";
import { OrderStatus } from "@/app/_storefront/components/OrderStatus";

export const metadata: Metadata = {
  title: "Your order",
  description: "Payment status and receipt.",
  // A receipt belongs to one customer: keep it out of search engines.
  robots: { index: false, follow: false },
};

/**
 * The order status page for one cart: polls the order result and shows the receipt. What it needs
 * (the cart's capability, then the receipt's) is on the device that paid, never in this URL.
 */
export default async function OrderPage(props: { params: Promise<{ locationSlug: string; cartId: string }> }) {
  const { locationSlug, cartId } = await props.params;
  return <OrderStatus locationSlug={locationSlug} cartId={cartId} />;
}
