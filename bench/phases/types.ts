import { quantile, type TargetCheck } from "../targets";

/** Phases of `npm run bench`, each selectable with --only=<id>[,<id>]. */
export const PHASE_IDS = ["queries", "load", "scaling", "menu", "plans", "concurrency", "replay"] as const;
export type PhaseId = (typeof PHASE_IDS)[number];

export type PhaseTable = { title: string; header: string[]; rows: string[][] };

/** What a scaling phase reports: tables for the text/markdown report, its targets, and raw data for latest.json. */
export type PhaseReport = { id: PhaseId; title: string; description: string; tables: PhaseTable[]; targets: TargetCheck[]; data: unknown };

export function median(values: number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "-");
export const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "-");
