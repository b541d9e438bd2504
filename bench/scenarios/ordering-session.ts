import { orderingSessionRequest } from "./common";
import type { Scenario } from "./types";

export const orderingSessionScenario: Scenario = {
  id: "ordering-session",
  title: "ordering session",
  description: "POST an ordering session (takeout) with a fresh Idempotency-Key each time: a new cart per request.",
  createClients: (context, count) => Promise.resolve(Array.from({ length: count }, () => ({ next: () => orderingSessionRequest(context) }))),
};
