import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from "trpc-to-openapi";
import { appRouter } from "../routers";

/**
 * Names a request by the operation it reached, for logs: the REST path template and the
 * procedure, never the raw path (which carries ids, and could carry whatever a client put there).
 */
export type RouteName = { route: string; procedure: string | null };

type Entry = { regex: RegExp; template: string; procedure: string };

let byMethod: Map<string, Entry[]> | undefined;

/** The same table and order as trpc-to-openapi's own lookup: per method, first match wins, case-insensitive. */
function table(): Map<string, Entry[]> {
  if (!byMethod) {
    const built = new Map<string, Entry[]>();
    forEachOpenApiProcedure(appRouter._def.procedures, ({ path, meta: { openapi } }) => {
      const template = normalizePath(openapi.path);
      const entries = built.get(openapi.method) ?? [];
      entries.push({ regex: getPathRegExp(template), template, procedure: path });
      built.set(openapi.method, entries);
    });
    byMethod = built;
  }
  return byMethod;
}

/** `pathname` is relative to the REST prefix, e.g. `/locations/loc_1/carts/cart_2/items`. */
export function restRouteName(method: string, pathname: string): RouteName {
  if (method === "OPTIONS") return { route: "(preflight)", procedure: null };
  const path = normalizePath(pathname);
  const entry = table().get(method)?.find((candidate) => candidate.regex.test(path));
  return entry ? { route: entry.template, procedure: entry.procedure } : { route: "(unmatched)", procedure: null };
}

/** `/api/trpc/carts.addItem` names `carts.addItem`, if that procedure exists. */
export function rpcRouteName(pathname: string, endpoint: string): RouteName {
  const name = decodeURIComponent(pathname.slice(endpoint.length).replace(/^\/+/, ""));
  return Object.hasOwn(appRouter._def.procedures, name) ? { route: `${endpoint}/${name}`, procedure: name } : { route: "(unmatched)", procedure: null };
}
