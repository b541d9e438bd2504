import { addItemScenario } from "./add-item";
import { cartScenario } from "./cart";
import { menusCachedScenario, menusScenario } from "./menus";
import { orderingSessionScenario } from "./ordering-session";
import type { Scenario } from "./types";

export const scenarios: readonly Scenario[] = [menusScenario, menusCachedScenario, orderingSessionScenario, addItemScenario, cartScenario];
export type { Scenario, ScenarioId } from "./types";
