import { appRouter } from "../routers";
import type { StorefrontMeta } from "../trpc/init";
import type { OperationKind } from "../trpc/operation-kinds";
import { matchRestRoute } from "./rest-routes";

/**
 * Names a request by the operation it reached, for logs: the REST path template and the
 * procedure, never the raw path (which carries ids, and could carry whatever a client put there).
 */
export type RouteName = { route: string; procedure: string | null; kind: OperationKind | null };

const unmatched: RouteName = { route: "(unmatched)", procedure: null, kind: null };

/** `pathname` is relative to the REST prefix, e.g. `/locations/loc_1/carts/cart_2/items`. */
export function restRouteName(method: string, pathname: string): RouteName {
  if (method === "OPTIONS") return { route: "(preflight)", procedure: null, kind: null };
  try {
    const route = matchRestRoute(method, pathname);
    return { route: route.template, procedure: route.procedure, kind: route.kind };
  } catch {
    return unmatched;
  }
}

/** `/api/trpc/carts.addItem` names `carts.addItem`, if that procedure exists. */
export function rpcRouteName(pathname: string, endpoint: string): RouteName {
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice(endpoint.length).replace(/^\/+/, ""));
  } catch {
    return unmatched;
  }
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: StorefrontMeta } } | undefined>)[name];
  return procedure && Object.hasOwn(appRouter._def.procedures, name) ? { route: `${endpoint}/${name}`, procedure: name, kind: procedure._def.meta?.kind ?? null } : unmatched;
}
