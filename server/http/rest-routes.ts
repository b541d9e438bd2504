import { forEachOpenApiProcedure } from "trpc-to-openapi";
import { AppError, validationError, type FieldIssue } from "../errors";
import { appRouter } from "../routers";
import { isPathId } from "../schemas/common";
import type { StorefrontMeta } from "../trpc/init";
import type { OperationKind } from "../trpc/operation-kinds";

/**
 * Which operation a REST request reaches, decided by us before trpc-to-openapi sees it, so that every
 * answer under the prefix is the contract's: the bare prefix, a trailing slash or an empty segment is
 * a 404 envelope; a known path with another method is 405 with `Allow`; HEAD is GET without a body
 * (RFC 9110 §9.3.2); path segments are compared after percent-decoding (RFC 3986 §2.1), and a
 * malformed escape is a 400.
 */
type Segment = { literal: string } | { parameter: string };
type Route = { method: string; template: string; procedure: string; kind: OperationKind | null; conditional: boolean; segments: Segment[] };

export type RestMatch = {
  method: string;
  template: string;
  procedure: string;
  kind: OperationKind | null;
  /** A GET that answers If-None-Match with 304 (not one whose ETag is a revision: StorefrontMeta.revisionTagged). */
  conditional: boolean;
  /** The path as the adapter is given it: the template's literals and each parameter's decoded, checked value. */
  canonicalPath: string;
  /** The template's parameter names (`locationId`, `cartId`, ...): the path gives them, a body may not. */
  pathParameters: string[];
};

let routes: Route[] | undefined;
/** The routes of each path length, literals first (`/products/popular` before `/products/{productId}`): looked up per request. */
let bySegmentCount: Map<number, Route[]> | undefined;

function routesOfLength(count: number): readonly Route[] {
  if (!bySegmentCount) {
    const index = new Map<number, Route[]>();
    for (const route of table()) index.set(route.segments.length, [...(index.get(route.segments.length) ?? []), route]);
    for (const list of index.values()) list.sort((a, b) => literalCount(b) - literalCount(a));
    bySegmentCount = index;
  }
  return bySegmentCount.get(count) ?? [];
}

function table(): Route[] {
  if (!routes) {
    const built: Route[] = [];
    forEachOpenApiProcedure(appRouter._def.procedures, ({ path, meta }) => {
      const { openapi } = meta;
      const segments = openapi.path.split("/").slice(1).map((part): Segment => {
        const parameter = /^\{(.+)\}$/.exec(part)?.[1];
        return parameter === undefined ? { literal: part } : { parameter };
      });
      const { kind, revisionTagged } = meta as StorefrontMeta;
      built.push({ method: openapi.method, template: openapi.path, procedure: path, kind: kind ?? null, conditional: openapi.method === "GET" && revisionTagged !== true, segments });
    });
    routes = built;
  }
  return routes;
}

function decodeSegments(pathname: string): string[] {
  return pathname
    .split("/")
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw validationError("The path has a malformed percent-escape", [{ path: "path", message: "malformed percent-encoding (RFC 3986)" }]);
      }
    });
}

const literalCount = (route: Route) => route.segments.filter((part) => "literal" in part).length;

function matches(route: Route, segments: readonly string[]): boolean {
  if (route.segments.length !== segments.length) return false;
  for (let index = 0; index < segments.length; index++) {
    const part = route.segments[index];
    const segment = segments[index] ?? "";
    if (part === undefined || ("literal" in part ? part.literal !== segment : segment === "")) return false;
  }
  return true;
}

/**
 * Each path parameter, decoded, checked by the identifier rule every path parameter's schema uses
 * (schemas/common.ts pathId, as isPathId), here where the parameter's name is known: a value outside it is a 400
 * naming the parameter, and no decoded `/`, `%` or NUL reaches the adapter. `.` and `..` are refused
 * too: no id is a dot segment, and the adapter's URL parser would resolve one.
 */
function checkedParameters(route: Route, segments: readonly string[]): string[] {
  const issues: FieldIssue[] = [];
  const values = route.segments.map((part, index) => {
    const value = segments[index] ?? "";
    if ("literal" in part) return part.literal;
    if (!isPathId(value) || value === "." || value === "..") issues.push({ path: part.parameter, message: "must be 1-128 URL-safe characters (A-Z a-z 0-9 . _ : ~ -) after percent-decoding" });
    return value;
  });
  if (issues.length > 0) throw validationError("A path parameter is not a valid identifier", issues);
  return values;
}

/** Methods a path answers to, for `Allow`: HEAD wherever GET is, and OPTIONS (CORS preflight) everywhere. */
export function allowedMethods(pathname: string): string[] {
  let segments: string[];
  try {
    segments = decodeSegments(pathname);
  } catch {
    return [];
  }
  const methods = new Set(table().filter((route) => matches(route, segments)).map((route) => route.method));
  if (methods.size === 0) return [];
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return [...methods];
}

/** `pathname` is relative to the REST prefix and still percent-encoded, e.g. `/locations/harbor%2Dkitchen/menus`. */
export function matchRestRoute(method: string, pathname: string): RestMatch {
  const segments = decodeSegments(pathname);
  const lookup = method === "HEAD" ? "GET" : method;
  const sameLength = routesOfLength(segments.length);
  // A literal beats a parameter: `/products/popular` is not the product "popular" (routesOfLength's order).
  const route = sameLength.find((candidate) => candidate.method === lookup && matches(candidate, segments));
  if (!route) {
    if (sameLength.some((candidate) => matches(candidate, segments))) {
      const allow = allowedMethods(pathname);
      throw new AppError("METHOD_NOT_ALLOWED", `${method.slice(0, 16)} is not allowed here; this path answers ${allow.join(", ")}`, { headers: { Allow: allow.join(", ") }, details: { allow } });
    }
    const hint = pathname.endsWith("/") && pathname.length > 1 ? " (paths have no trailing slash)" : "";
    throw new AppError("NOT_FOUND", `No operation exists at this path${hint}`);
  }
  const canonicalPath = `/${checkedParameters(route, segments).join("/")}`;
  const pathParameters = route.segments.flatMap((part) => ("parameter" in part ? [part.parameter] : []));
  return { method: route.method, template: route.template, procedure: route.procedure, kind: route.kind, conditional: route.conditional, canonicalPath, pathParameters };
}
