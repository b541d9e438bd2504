import type { Metadata } from "next";
import { AccountView } from "@/app/_storefront/components/AccountView";

export const metadata: Metadata = {
  title: "Your account",
  description: "Your orders and loyalty points.",
  robots: { index: false, follow: false },
};

/** The signed-in customer's orders and points; the customer's token stays on the device, never in this URL. */
export default async function AccountPage(props: { params: Promise<{ locationSlug: string }> }) {
  const { locationSlug } = await props.params;
  return <AccountView locationSlug={locationSlug} />;
}
