import { BENCH_LOCATION_ID } from "./common";
import type { Scenario } from "./types";

export const menusScenario: Scenario = {
  id: "menus",
  title: "GET menu",
  description:
    `GET the menus of ${BENCH_LOCATION_ID} (seed catalog), no If-None-Match, with Cache-Control: no-cache so that the REST facade reads the database ` +
    "as the controls do (repeated anonymous reads are otherwise answered from its response cache: see the menu phase).",
  createClients: (context, count) =>
    Promise.resolve(
      Array.from({ length: count }, () => ({
        next: () => ({ method: "GET" as const, path: context.subject.paths.menus(context.locationId), headers: { "cache-control": "no-cache" }, expectStatus: 200 }),
      })),
    ),
};
