import type { RequestSpec } from "../load";
import { BENCH_LOCATION_ID } from "./common";
import type { Scenario, ScenarioContext } from "./types";

function menusRequest(context: ScenarioContext, headers: Record<string, string>): RequestSpec {
  return { method: "GET", path: context.subject.paths.menus(context.locationId), headers, expectStatus: 200 };
}

export const menusScenario: Scenario = {
  id: "menus",
  title: "GET menu (no-cache)",
  description:
    `GET the menus of ${BENCH_LOCATION_ID} (seed catalog), no If-None-Match, with Cache-Control: no-cache so that the REST facade reads the database ` +
    "as the controls do (repeated anonymous reads are otherwise answered from its response cache: see GET menu (cached) and the menu phase).",
  createClients: (context, count) => Promise.resolve(Array.from({ length: count }, () => ({ next: () => menusRequest(context, { "cache-control": "no-cache" }) }))),
};

/**
 * The same read as a browser or CDN sends it, without no-cache: the REST facade answers repeated
 * anonymous reads from its in-memory response cache (RESPONSE_CACHE_TTL_MS, 5 s by default: one read
 * per TTL goes to the database), while the floor has no cache and reads the database every time. That
 * is what issue 16's cached-menu target compares (REST fast path / K0). The plain-route and node:http
 * controls call getMenus without the cache, as in GET menu (no-cache), so they are left out.
 */
export const menusCachedScenario: Scenario = {
  id: "menus-cached",
  title: "GET menu (cached)",
  description:
    `GET the menus of ${BENCH_LOCATION_ID} (seed catalog), no If-None-Match and no Cache-Control: the REST facade answers from its in-memory response cache ` +
    "(one read per RESPONSE_CACHE_TTL_MS goes to the database); the floor has no cache and reads the database each time. Not measured on the plain-route and node:http controls.",
  subjects: ["rest", "rest-next", "floor-route", "floor-node"],
  createClients: (context, count) => Promise.resolve(Array.from({ length: count }, () => ({ next: () => menusRequest(context, {}) }))),
};
