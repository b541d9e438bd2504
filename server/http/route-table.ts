import { appRouter } from "../routers";
import { matchRestRoute } from "./rest-routes";

/**
 * Names a request by the operation it reached, for logs: the REST path template and the
 * procedure, never the raw path (which carries ids, and could carry whatever a client put there).
 */
export type RouteName = { route: string; procedure: string | null };

/** `pathname` is relative to the REST prefix, e.g. `/locations/loc_1/carts/cart_2/items`. */
export function restRouteName(method: string, pathname: string): RouteName {
  if (method === "OPTIONS") return { route: "(preflight)", procedure: null };
  try {
    const route = matchRestRoute(method, pathname);
    return { route: route.template, procedure: route.procedure };
  } catch {
    return { route: "(unmatched)", procedure: null };
  }
}

/** `/api/trpc/carts.addItem` names `carts.addItem`, if that procedure exists. */
export function rpcRouteName(pathname: string, endpoint: string): RouteName {
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice(endpoint.length).replace(/^\/+/, ""));
  } catch {
    return { route: "(unmatched)", procedure: null };
  }
  return Object.hasOwn(appRouter._def.procedures, name) ? { route: `${endpoint}/${name}`, procedure: name } : { route: "(unmatched)", procedure: null };
}
