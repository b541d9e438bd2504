import { BENCH_LOCATION_ID } from "./common";
import type { Scenario } from "./types";

export const menusScenario: Scenario = {
  id: "menus",
  title: "GET menu",
  description: `GET the menus of ${BENCH_LOCATION_ID} (seed catalog), no If-None-Match.`,
  createClients: (context, count) =>
    Promise.resolve(
      Array.from({ length: count }, () => ({
        next: () => ({ method: "GET" as const, path: context.subject.paths.menus(context.locationId), expectStatus: 200 }),
      })),
    ),
};
