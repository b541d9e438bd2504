import type { Metadata } from "next";
import { Storefront } from "@/app/_storefront/components/Storefront";

export const metadata: Metadata = {
  title: "Order online",
  description: "Browse the menu and build your order.",
};

/**
 * The demo storefront for one location. Everything it shows comes from the typed RPC client in
 * the browser (app/_storefront/lib/rpc.ts), exactly as a separately hosted storefront would.
 */
export default async function LocationPage(props: { params: Promise<{ locationSlug: string }> }) {
  const { locationSlug } = await props.params;
  return <Storefront locationSlug={locationSlug} />;
}
