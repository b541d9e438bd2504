import type { HttpClient, LoadClient } from "../load";
import type { Subject, SubjectId } from "../subjects";

export type ScenarioId = "menus" | "menus-cached" | "ordering-session" | "add-item" | "cart";

export type ScenarioContext = { subject: Subject; http: HttpClient; locationId: string };

/** One operation measured on every subject (or those it lists) with the same clients, counts and concurrency. */
export type Scenario = {
  id: ScenarioId;
  title: string;
  /** How the requests are shaped, for the report. */
  description: string;
  /** Only these subjects, in the bench's order; every subject when absent. */
  subjects?: readonly SubjectId[];
  /** One virtual client per concurrency slot; untimed setup (carts, lines) happens here. */
  createClients: (context: ScenarioContext, count: number) => Promise<LoadClient[]>;
};
