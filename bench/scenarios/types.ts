import type { HttpClient, LoadClient } from "../load";
import type { Subject } from "../subjects";

export type ScenarioId = "menus" | "ordering-session" | "add-item" | "cart";

export type ScenarioContext = { subject: Subject; http: HttpClient; locationId: string };

/** One operation measured on every subject with the same clients, counts and concurrency. */
export type Scenario = {
  id: ScenarioId;
  title: string;
  /** How the requests are shaped, for the report. */
  description: string;
  /** One virtual client per concurrency slot; untimed setup (carts, lines) happens here. */
  createClients: (context: ScenarioContext, count: number) => Promise<LoadClient[]>;
};
