import type { Metadata } from "next";
import { cache } from "react";
import { Storefront } from "@/app/_storefront/components/Storefront";
import { getAppDeps } from "@/server/app/container";
import { createRequestContext } from "@/server/app/request-context";
import { newRequestId } from "@/server/http/request-id";
import { appRouter } from "@/server/routers";
import { createCallerFactory } from "@/server/trpc/init";

// The menu depends on the time of the request (what is served now), so the page is rendered per request.
export const dynamic = "force-dynamic";

const callerOf = createCallerFactory(appRouter);

/**
 * The location and the menus it serves now, read on the server through the same procedures the
 * browser's typed client calls, so the HTML carries the restaurant, its menu and its title; the
 * client then keeps the cart. A failure here only means the browser loads them itself.
 */
const serverRendered = cache(async (locationSlug: string) => {
  try {
    const deps = await getAppDeps();
    const caller = callerOf(createRequestContext({ requestId: newRequestId(), deps, clientIp: "server-render", origin: "", headers: new Headers() }));
    const location = await caller.catalog.location({ locationSlugOrId: locationSlug });
    const menus = await caller.catalog.menus({ locationId: location.id });
    return { location, menus };
  } catch {
    return undefined;
  }
});

export async function generateMetadata(props: { params: Promise<{ locationSlug: string }> }): Promise<Metadata> {
  const { locationSlug } = await props.params;
  const rendered = await serverRendered(locationSlug);
  return rendered
    ? { title: `${rendered.location.displayName}: order online`, description: rendered.location.description }
    : { title: "Order online", description: "Browse the menu and build your order." };
}

export default async function LocationPage(props: { params: Promise<{ locationSlug: string }> }) {
  const { locationSlug } = await props.params;
  return <Storefront locationSlug={locationSlug} initial={await serverRendered(locationSlug)} />;
}
